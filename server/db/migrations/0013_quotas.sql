ALTER TABLE "user_stats" ADD COLUMN "shares" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_stats" ADD COLUMN "stored_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Account quotas: user_stats also counts each player's live share links and the bytes of
-- their stored text, kept by triggers in the statements that write it (as 0006's rollups), so a
-- quota check reads one row and never sums a player's stories. What counts: each story's premise,
-- memory and notes, its messages, their versions and its kept memory folds; each share snapshot's
-- title and messages (as JSON text). Pictures do not. Bytes are octet_length of the text.
-- Backfill from what is stored now.
UPDATE "user_stats" s SET "shares" = c.n FROM (SELECT "user_id", count(*)::int AS n FROM "shared_stories" GROUP BY "user_id") c WHERE s."user_id" = c."user_id";--> statement-breakpoint
UPDATE "user_stats" s SET "stored_bytes" = b.bytes FROM (
	SELECT t.user_id, sum(t.bytes) AS bytes FROM (
		SELECT "user_id", octet_length("premise")::bigint + octet_length("memory") + octet_length("notes") AS bytes FROM "stories"
		UNION ALL SELECT st."user_id", octet_length(m."content") FROM "story_messages" m JOIN "stories" st ON st."id" = m."story_id"
		UNION ALL SELECT st."user_id", octet_length(v."content") FROM "message_versions" v JOIN "story_messages" m ON m."id" = v."message_id" JOIN "stories" st ON st."id" = m."story_id"
		UNION ALL SELECT st."user_id", octet_length(f."memory") FROM "story_memory_folds" f JOIN "stories" st ON st."id" = f."story_id"
		UNION ALL SELECT "user_id", octet_length("title")::bigint + octet_length("messages"::text) FROM "shared_stories"
	) t GROUP BY t.user_id
) b WHERE s."user_id" = b.user_id;--> statement-breakpoint
-- A story's own text.
CREATE FUNCTION "story_text_bytes"(premise text, memory text, notes text) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
	SELECT octet_length(premise)::bigint + octet_length(memory) + octet_length(notes)
$$;--> statement-breakpoint
-- Adds bytes to the owner of a story: one primary-key lookup of the story, one of the owner's row.
-- A story being deleted is gone by the time its rows' triggers run (its own trigger below counted
-- them all), so they add nothing.
CREATE FUNCTION "add_story_bytes"(story integer, bytes bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF bytes <> 0 THEN
		UPDATE "user_stats" SET "stored_bytes" = "stored_bytes" + bytes WHERE "user_id" = (SELECT "user_id" FROM "stories" WHERE "id" = story);
	END IF;
END $$;--> statement-breakpoint
-- A new story counts as one story and its own text, in one update of the owner's row.
CREATE OR REPLACE FUNCTION "stories_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		UPDATE "user_stats" SET "stories" = "stories" + 1, "stored_bytes" = "stored_bytes" + "story_text_bytes"(NEW."premise", NEW."memory", NEW."notes")
		WHERE "user_id" = NEW."user_id";
	ELSE
		UPDATE "user_stats" SET "stories" = greatest("stories" - 1, 0) WHERE "user_id" = OLD."user_id";
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
-- A deleted story takes all its text with it: counted before its rows go (their own triggers then
-- find no story). Its work is the deletion's own (every row summed is a row deleted). Not when the
-- account is being deleted: its user_stats row goes too.
CREATE FUNCTION "stories_bytes_gone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (SELECT 1 FROM "users" WHERE "id" = OLD."user_id") THEN
		UPDATE "user_stats" SET "stored_bytes" = "stored_bytes" - (
			"story_text_bytes"(OLD."premise", OLD."memory", OLD."notes")
			+ coalesce((SELECT sum(octet_length(m."content") + coalesce((SELECT sum(octet_length(v."content")) FROM "message_versions" v WHERE v."message_id" = m."id"), 0))
				FROM "story_messages" m WHERE m."story_id" = OLD."id"), 0)
			+ coalesce((SELECT sum(octet_length(f."memory")) FROM "story_memory_folds" f WHERE f."story_id" = OLD."id"), 0))
		WHERE "user_id" = OLD."user_id";
	END IF;
	RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER "stories_bytes_gone" BEFORE DELETE ON "stories" FOR EACH ROW EXECUTE FUNCTION "stories_bytes_gone"();--> statement-breakpoint
-- The premise, memory or notes changed length (the memory panel, a memory fold, an undo reaching
-- into folded turns). The lease's updates on every turn name none of these columns: no call.
CREATE FUNCTION "stories_bytes_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "user_stats" SET "stored_bytes" = "stored_bytes" + "story_text_bytes"(NEW."premise", NEW."memory", NEW."notes") - "story_text_bytes"(OLD."premise", OLD."memory", OLD."notes")
	WHERE "user_id" = NEW."user_id";
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "stories_bytes_changed" AFTER UPDATE OF "premise", "memory", "notes" ON "stories" FOR EACH ROW
	WHEN ("story_text_bytes"(OLD."premise", OLD."memory", OLD."notes") <> "story_text_bytes"(NEW."premise", NEW."memory", NEW."notes"))
	EXECUTE FUNCTION "stories_bytes_changed"();--> statement-breakpoint
-- Messages, message versions and kept memory folds. A turn writes one message a statement: counted
-- row by row, a primary-key lookup of the story and one update of its owner's row. A writer of many
-- rows at once (a branch, an import) sets taleweaver.bulk_rows for its transaction: its rows are then
-- counted once a statement and story, from the statement's rows, instead of updating the owner's row
-- once a row (a trigger with a transition table costs a turn more than the row's own update does).
-- Counted either way: the setting only chooses how. Folds are few: counted by statement.
CREATE FUNCTION "story_rows_bytes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	r record;
BEGIN
	IF TG_TABLE_NAME = 'story_messages' AND TG_OP = 'INSERT' THEN
		FOR r IN SELECT "story_id" AS story, sum(octet_length("content")) AS bytes FROM "added" GROUP BY 1 LOOP
			PERFORM "add_story_bytes"(r.story, r.bytes);
		END LOOP;
	ELSIF TG_TABLE_NAME = 'story_messages' THEN
		FOR r IN SELECT "story_id" AS story, sum(octet_length("content")) AS bytes FROM "gone" GROUP BY 1 LOOP
			PERFORM "add_story_bytes"(r.story, -r.bytes);
		END LOOP;
	ELSIF TG_TABLE_NAME = 'message_versions' THEN
		FOR r IN SELECT (SELECT m."story_id" FROM "story_messages" m WHERE m."id" = a."message_id") AS story, sum(octet_length(a."content")) AS bytes FROM "added" a GROUP BY 1 LOOP
			PERFORM "add_story_bytes"(r.story, r.bytes);
		END LOOP;
	ELSIF TG_OP = 'INSERT' THEN
		FOR r IN SELECT "story_id" AS story, sum(octet_length("memory")) AS bytes FROM "added" GROUP BY 1 LOOP
			PERFORM "add_story_bytes"(r.story, r.bytes);
		END LOOP;
	ELSE
		FOR r IN SELECT "story_id" AS story, sum(octet_length("memory")) AS bytes FROM "gone" GROUP BY 1 LOOP
			PERFORM "add_story_bytes"(r.story, -r.bytes);
		END LOOP;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
-- One row: a message written or its shown text replaced (an alternative, an edit, a version chosen,
-- a replaced action), a kept fold rewritten.
CREATE FUNCTION "story_rows_bytes_row"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	bytes bigint;
BEGIN
	IF TG_TABLE_NAME = 'story_memory_folds' THEN
		PERFORM "add_story_bytes"(NEW."story_id", octet_length(NEW."memory")::bigint - octet_length(OLD."memory"));
		RETURN NULL;
	END IF;
	IF TG_OP = 'INSERT' THEN
		bytes := octet_length(NEW."content");
	ELSE
		bytes := octet_length(NEW."content")::bigint - octet_length(OLD."content");
	END IF;
	UPDATE "user_stats" SET "stored_bytes" = "stored_bytes" + bytes WHERE "user_id" = (SELECT "user_id" FROM "stories" WHERE "id" = NEW."story_id");
	RETURN NULL;
END $$;--> statement-breakpoint
-- One version: written (a retry's first alternative writes two), rewritten (a replaced action at the
-- versions cap) or removed (only ever with its message and story: nothing then to count against).
CREATE FUNCTION "message_versions_bytes_row"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	message integer;
	bytes bigint;
BEGIN
	IF TG_OP = 'INSERT' THEN
		message := NEW."message_id";
		bytes := octet_length(NEW."content");
	ELSIF TG_OP = 'UPDATE' THEN
		message := NEW."message_id";
		bytes := octet_length(NEW."content")::bigint - octet_length(OLD."content");
	ELSE
		message := OLD."message_id";
		bytes := -octet_length(OLD."content")::bigint;
	END IF;
	UPDATE "user_stats" SET "stored_bytes" = "stored_bytes" + bytes
	WHERE "user_id" = (SELECT s."user_id" FROM "story_messages" m JOIN "stories" s ON s."id" = m."story_id" WHERE m."id" = message);
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "story_messages_bytes_added" AFTER INSERT ON "story_messages" FOR EACH ROW
	WHEN (coalesce(current_setting('taleweaver.bulk_rows', true), '') <> 'on') EXECUTE FUNCTION "story_rows_bytes_row"();--> statement-breakpoint
CREATE TRIGGER "story_messages_bytes_added_in_bulk" AFTER INSERT ON "story_messages" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT
	WHEN (current_setting('taleweaver.bulk_rows', true) = 'on') EXECUTE FUNCTION "story_rows_bytes"();--> statement-breakpoint
CREATE TRIGGER "story_messages_bytes_changed" AFTER UPDATE OF "content" ON "story_messages" FOR EACH ROW
	WHEN (octet_length(OLD."content") <> octet_length(NEW."content")) EXECUTE FUNCTION "story_rows_bytes_row"();--> statement-breakpoint
-- Deleted messages (a story's, by cascade: no story left to count against) once a statement, so a
-- story of thousands of messages goes with one call.
CREATE TRIGGER "story_messages_bytes_gone" AFTER DELETE ON "story_messages" REFERENCING OLD TABLE AS "gone" FOR EACH STATEMENT EXECUTE FUNCTION "story_rows_bytes"();--> statement-breakpoint
CREATE TRIGGER "message_versions_bytes_added" AFTER INSERT ON "message_versions" FOR EACH ROW
	WHEN (coalesce(current_setting('taleweaver.bulk_rows', true), '') <> 'on') EXECUTE FUNCTION "message_versions_bytes_row"();--> statement-breakpoint
CREATE TRIGGER "message_versions_bytes_added_in_bulk" AFTER INSERT ON "message_versions" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT
	WHEN (current_setting('taleweaver.bulk_rows', true) = 'on') EXECUTE FUNCTION "story_rows_bytes"();--> statement-breakpoint
CREATE TRIGGER "message_versions_bytes_changed" AFTER UPDATE OF "content" ON "message_versions" FOR EACH ROW
	WHEN (octet_length(OLD."content") <> octet_length(NEW."content")) EXECUTE FUNCTION "message_versions_bytes_row"();--> statement-breakpoint
CREATE TRIGGER "message_versions_bytes_gone" AFTER DELETE ON "message_versions" FOR EACH ROW EXECUTE FUNCTION "message_versions_bytes_row"();--> statement-breakpoint
CREATE TRIGGER "story_memory_folds_bytes_added" AFTER INSERT ON "story_memory_folds" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "story_rows_bytes"();--> statement-breakpoint
CREATE TRIGGER "story_memory_folds_bytes_gone" AFTER DELETE ON "story_memory_folds" REFERENCING OLD TABLE AS "gone" FOR EACH STATEMENT EXECUTE FUNCTION "story_rows_bytes"();--> statement-breakpoint
CREATE TRIGGER "story_memory_folds_bytes_changed" AFTER UPDATE OF "memory" ON "story_memory_folds" FOR EACH ROW
	WHEN (octet_length(OLD."memory") <> octet_length(NEW."memory")) EXECUTE FUNCTION "story_rows_bytes_row"();--> statement-breakpoint
-- Share snapshots carry their owner: a live link counts one share and its bytes.
CREATE FUNCTION "shared_stories_quota"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		UPDATE "user_stats" SET "shares" = "shares" + 1, "stored_bytes" = "stored_bytes" + octet_length(NEW."title") + octet_length(NEW."messages"::text)
		WHERE "user_id" = NEW."user_id";
	ELSIF TG_OP = 'DELETE' THEN
		UPDATE "user_stats" SET "shares" = greatest("shares" - 1, 0), "stored_bytes" = "stored_bytes" - octet_length(OLD."title") - octet_length(OLD."messages"::text)
		WHERE "user_id" = OLD."user_id";
	ELSE
		UPDATE "user_stats" SET "stored_bytes" = "stored_bytes" + (octet_length(NEW."title")::bigint + octet_length(NEW."messages"::text)) - (octet_length(OLD."title") + octet_length(OLD."messages"::text))
		WHERE "user_id" = NEW."user_id";
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "shared_stories_quota" AFTER INSERT OR DELETE OR UPDATE OF "title", "messages" ON "shared_stories" FOR EACH ROW EXECUTE FUNCTION "shared_stories_quota"();
