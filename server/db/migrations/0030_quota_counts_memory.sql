-- Everything a player stores counts against their stored bytes: besides the text 0013 and 0018 count,
-- each reply version's context record (narrator_contexts), the story bible's facts (story_facts) and
-- the memory bank's passages, terms and vectors (memory_passages, memory_terms, memory_vectors). Each
-- row counts the bytes of what it holds: text by octet_length, arrays and jsonb by octet_length of
-- their text form (as 0018 counts a card's keys: the figure a backfill, a recount and an export all
-- read alike, whatever the storage compressed), bytea by its length; ids, numbers, flags and times,
-- which every row has, are not counted, as for messages. The memory bank's running totals and pending
-- deltas (memory_totals, memory_deltas) are a few numbers a story and do not count.
-- Counted by triggers in the statements that write the rows, as 0013 does: a turn's context record
-- row by row (one a reply, like its message), the rest once a statement and story (the memory bank,
-- a branch and an import write them many at once). Every trigger here takes only the player's
-- user_stats row, after the statement's own rows, as 0013's do.
-- Backfill from what is stored now.
CREATE FUNCTION "context_record_bytes"(keyed integer[], cards_on integer[], record jsonb) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
	SELECT octet_length(keyed::text)::bigint + octet_length(cards_on::text) + octet_length(record::text)
$$;--> statement-breakpoint
CREATE FUNCTION "fact_bytes"(entity text, attribute text, value text) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
	SELECT octet_length(entity)::bigint + octet_length(attribute) + octet_length(value)
$$;--> statement-breakpoint
CREATE FUNCTION "passage_bytes"(content text, terms text[], counts integer[]) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
	SELECT octet_length(content)::bigint + octet_length(terms::text) + octet_length(counts::text)
$$;--> statement-breakpoint
UPDATE "user_stats" s SET "stored_bytes" = s."stored_bytes" + b.bytes FROM (
	SELECT t.user_id, sum(t.bytes)::bigint AS bytes FROM (
		SELECT st."user_id", "context_record_bytes"(c."keyed", c."on", c."record") AS bytes FROM "narrator_contexts" c
			JOIN "story_messages" m ON m."id" = c."message_id" JOIN "stories" st ON st."id" = m."story_id"
		UNION ALL SELECT st."user_id", "fact_bytes"(f."entity", f."attribute", f."value") FROM "story_facts" f JOIN "stories" st ON st."id" = f."story_id"
		UNION ALL SELECT st."user_id", "passage_bytes"(p."text", p."terms", p."counts") FROM "memory_passages" p JOIN "stories" st ON st."id" = p."story_id"
		UNION ALL SELECT st."user_id", octet_length(t."term") FROM "memory_terms" t JOIN "stories" st ON st."id" = t."story_id"
		UNION ALL SELECT st."user_id", octet_length(v."vector") FROM "memory_vectors" v JOIN "stories" st ON st."id" = v."story_id"
	) t GROUP BY t.user_id
) b WHERE s."user_id" = b.user_id;--> statement-breakpoint
-- A context record belongs to a message, and through it to a story. Written one a reply (with its
-- message, in saveReply's one statement): counted row by row, one lookup of the message's story and
-- one update of its owner's row, as the message itself is; rewritten (the same version saved again)
-- by its difference.
CREATE FUNCTION "narrator_contexts_bytes_row"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	bytes bigint;
BEGIN
	bytes := "context_record_bytes"(NEW."keyed", NEW."on", NEW."record");
	IF TG_OP = 'UPDATE' THEN
		bytes := bytes - "context_record_bytes"(OLD."keyed", OLD."on", OLD."record");
	END IF;
	IF bytes <> 0 THEN
		UPDATE "user_stats" SET "stored_bytes" = "stored_bytes" + bytes
		WHERE "user_id" = (SELECT s."user_id" FROM "story_messages" m JOIN "stories" s ON s."id" = m."story_id" WHERE m."id" = NEW."message_id");
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
-- Many records at once: written with taleweaver.bulk_rows on, or deleted (a story's, piece by piece,
-- before its messages: pieces.ts). Records deleted with their message or story find neither any more
-- and add nothing: a deleted story counted them before they went (stories_bytes_gone).
CREATE FUNCTION "narrator_contexts_bytes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	r record;
BEGIN
	IF TG_OP = 'INSERT' THEN
		FOR r IN SELECT m."story_id" AS story, sum("context_record_bytes"(a."keyed", a."on", a."record"))::bigint AS bytes
			FROM "added" a JOIN "story_messages" m ON m."id" = a."message_id" GROUP BY 1 LOOP
			PERFORM "add_story_bytes"(r.story, r.bytes);
		END LOOP;
	ELSE
		FOR r IN SELECT m."story_id" AS story, sum("context_record_bytes"(g."keyed", g."on", g."record"))::bigint AS bytes
			FROM "gone" g JOIN "story_messages" m ON m."id" = g."message_id" GROUP BY 1 LOOP
			PERFORM "add_story_bytes"(r.story, -r.bytes);
		END LOOP;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "narrator_contexts_bytes_added" AFTER INSERT ON "narrator_contexts" FOR EACH ROW
	WHEN (coalesce(current_setting('taleweaver.bulk_rows', true), '') <> 'on') EXECUTE FUNCTION "narrator_contexts_bytes_row"();--> statement-breakpoint
CREATE TRIGGER "narrator_contexts_bytes_added_in_bulk" AFTER INSERT ON "narrator_contexts" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT
	WHEN (current_setting('taleweaver.bulk_rows', true) = 'on') EXECUTE FUNCTION "narrator_contexts_bytes"();--> statement-breakpoint
CREATE TRIGGER "narrator_contexts_bytes_changed" AFTER UPDATE OF "keyed", "on", "record" ON "narrator_contexts" FOR EACH ROW
	EXECUTE FUNCTION "narrator_contexts_bytes_row"();--> statement-breakpoint
CREATE TRIGGER "narrator_contexts_bytes_gone" AFTER DELETE ON "narrator_contexts" REFERENCING OLD TABLE AS "gone" FOR EACH STATEMENT
	EXECUTE FUNCTION "narrator_contexts_bytes"();--> statement-breakpoint
-- Facts, passages, terms and vectors carry their story. Written and deleted many at once (a fold's
-- facts, a batch of passages with their new terms, a call's vectors, a branch's or an import's piece,
-- a story's rows going piece by piece): counted once a statement and story. A story being deleted is
-- gone by the time its rows' triggers run (add_story_bytes then adds nothing): it counted them.
CREATE FUNCTION "story_index_bytes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	r record;
	sign integer := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
BEGIN
	IF TG_TABLE_NAME = 'story_facts' THEN
		FOR r IN SELECT "story_id" AS story, sum("fact_bytes"("entity", "attribute", "value"))::bigint AS bytes FROM "changed" GROUP BY 1 LOOP
			PERFORM "add_story_bytes"(r.story, sign * r.bytes);
		END LOOP;
	ELSIF TG_TABLE_NAME = 'memory_passages' THEN
		FOR r IN SELECT "story_id" AS story, sum("passage_bytes"("text", "terms", "counts"))::bigint AS bytes FROM "changed" GROUP BY 1 LOOP
			PERFORM "add_story_bytes"(r.story, sign * r.bytes);
		END LOOP;
	ELSIF TG_TABLE_NAME = 'memory_terms' THEN
		FOR r IN SELECT "story_id" AS story, sum(octet_length("term"))::bigint AS bytes FROM "changed" GROUP BY 1 LOOP
			PERFORM "add_story_bytes"(r.story, sign * r.bytes);
		END LOOP;
	ELSE
		FOR r IN SELECT "story_id" AS story, sum(octet_length("vector"))::bigint AS bytes FROM "changed" GROUP BY 1 LOOP
			PERFORM "add_story_bytes"(r.story, sign * r.bytes);
		END LOOP;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
-- One row rewritten: a fact edited in the memory panel, a vector of another model replaced.
-- Passages and terms are never rewritten (their statistics and `live` change, not what they hold),
-- but would be counted the same way.
CREATE FUNCTION "story_index_bytes_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_TABLE_NAME = 'story_facts' THEN
		PERFORM "add_story_bytes"(NEW."story_id", "fact_bytes"(NEW."entity", NEW."attribute", NEW."value") - "fact_bytes"(OLD."entity", OLD."attribute", OLD."value"));
	ELSIF TG_TABLE_NAME = 'memory_passages' THEN
		PERFORM "add_story_bytes"(NEW."story_id", "passage_bytes"(NEW."text", NEW."terms", NEW."counts") - "passage_bytes"(OLD."text", OLD."terms", OLD."counts"));
	ELSIF TG_TABLE_NAME = 'memory_terms' THEN
		PERFORM "add_story_bytes"(NEW."story_id", octet_length(NEW."term")::bigint - octet_length(OLD."term"));
	ELSE
		PERFORM "add_story_bytes"(NEW."story_id", octet_length(NEW."vector")::bigint - octet_length(OLD."vector"));
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "story_facts_bytes_added" AFTER INSERT ON "story_facts" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "story_index_bytes"();--> statement-breakpoint
CREATE TRIGGER "story_facts_bytes_gone" AFTER DELETE ON "story_facts" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "story_index_bytes"();--> statement-breakpoint
CREATE TRIGGER "story_facts_bytes_changed" AFTER UPDATE OF "entity", "attribute", "value" ON "story_facts" FOR EACH ROW
	WHEN ("fact_bytes"(OLD."entity", OLD."attribute", OLD."value") <> "fact_bytes"(NEW."entity", NEW."attribute", NEW."value")) EXECUTE FUNCTION "story_index_bytes_row"();--> statement-breakpoint
CREATE TRIGGER "memory_passages_bytes_added" AFTER INSERT ON "memory_passages" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "story_index_bytes"();--> statement-breakpoint
CREATE TRIGGER "memory_passages_bytes_gone" AFTER DELETE ON "memory_passages" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "story_index_bytes"();--> statement-breakpoint
CREATE TRIGGER "memory_passages_bytes_changed" AFTER UPDATE OF "text", "terms", "counts" ON "memory_passages" FOR EACH ROW
	WHEN ("passage_bytes"(OLD."text", OLD."terms", OLD."counts") <> "passage_bytes"(NEW."text", NEW."terms", NEW."counts")) EXECUTE FUNCTION "story_index_bytes_row"();--> statement-breakpoint
CREATE TRIGGER "memory_terms_bytes_added" AFTER INSERT ON "memory_terms" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "story_index_bytes"();--> statement-breakpoint
CREATE TRIGGER "memory_terms_bytes_gone" AFTER DELETE ON "memory_terms" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "story_index_bytes"();--> statement-breakpoint
CREATE TRIGGER "memory_terms_bytes_changed" AFTER UPDATE OF "term" ON "memory_terms" FOR EACH ROW
	WHEN (octet_length(OLD."term") <> octet_length(NEW."term")) EXECUTE FUNCTION "story_index_bytes_row"();--> statement-breakpoint
CREATE TRIGGER "memory_vectors_bytes_added" AFTER INSERT ON "memory_vectors" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "story_index_bytes"();--> statement-breakpoint
CREATE TRIGGER "memory_vectors_bytes_gone" AFTER DELETE ON "memory_vectors" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "story_index_bytes"();--> statement-breakpoint
CREATE TRIGGER "memory_vectors_bytes_changed" AFTER UPDATE OF "vector" ON "memory_vectors" FOR EACH ROW
	WHEN (octet_length(OLD."vector") <> octet_length(NEW."vector")) EXECUTE FUNCTION "story_index_bytes_row"();--> statement-breakpoint
-- A deleted story takes these with it too, counted before its rows go (as 0013's, 0018's).
CREATE OR REPLACE FUNCTION "stories_bytes_gone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (SELECT 1 FROM "users" WHERE "id" = OLD."user_id") THEN
		UPDATE "user_stats" SET "stored_bytes" = "stored_bytes" - (
			"story_text_bytes"(OLD."premise", OLD."memory", OLD."notes")
			+ coalesce((SELECT sum(octet_length(m."content") + coalesce((SELECT sum(octet_length(v."content")) FROM "message_versions" v WHERE v."message_id" = m."id"), 0)
					+ coalesce((SELECT sum("context_record_bytes"(c."keyed", c."on", c."record")) FROM "narrator_contexts" c WHERE c."message_id" = m."id"), 0))
				FROM "story_messages" m WHERE m."story_id" = OLD."id"), 0)
			+ coalesce((SELECT sum(octet_length(f."memory")) FROM "story_memory_folds" f WHERE f."story_id" = OLD."id"), 0)
			+ coalesce((SELECT sum("card_bytes"(c."name", c."keys", c."secondary_keys", c."content")) FROM "story_cards" c WHERE c."story_id" = OLD."id"), 0)
			+ coalesce((SELECT sum("fact_bytes"(f."entity", f."attribute", f."value")) FROM "story_facts" f WHERE f."story_id" = OLD."id"), 0)
			+ coalesce((SELECT sum("passage_bytes"(p."text", p."terms", p."counts")) FROM "memory_passages" p WHERE p."story_id" = OLD."id"), 0)
			+ coalesce((SELECT sum(octet_length(t."term")) FROM "memory_terms" t WHERE t."story_id" = OLD."id"), 0)
			+ coalesce((SELECT sum(octet_length(v."vector")) FROM "memory_vectors" v WHERE v."story_id" = OLD."id"), 0))
		WHERE "user_id" = OLD."user_id";
	END IF;
	RETURN OLD;
END $$;
