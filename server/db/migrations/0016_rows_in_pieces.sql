-- A story's rows go in pieces: deleting a story of 10,000 messages in one statement held
-- the embedded database's one session for more than a second, every other request waiting. Its
-- rows are now deleted a few hundred at a time (library.remove), and removed message versions are
-- counted once a statement, like removed messages: counted a row at a time, each of a story's
-- 45,000 versions updated its owner's row on its own.
CREATE OR REPLACE FUNCTION "story_rows_bytes"() RETURNS trigger LANGUAGE plpgsql AS $$
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
	ELSIF TG_TABLE_NAME = 'message_versions' AND TG_OP = 'INSERT' THEN
		FOR r IN SELECT (SELECT m."story_id" FROM "story_messages" m WHERE m."id" = a."message_id") AS story, sum(octet_length(a."content")) AS bytes FROM "added" a GROUP BY 1 LOOP
			PERFORM "add_story_bytes"(r.story, r.bytes);
		END LOOP;
	ELSIF TG_TABLE_NAME = 'message_versions' THEN
		-- Versions whose message (or story) went in the same statement find no story: nothing to count against.
		FOR r IN SELECT (SELECT m."story_id" FROM "story_messages" m WHERE m."id" = g."message_id") AS story, sum(octet_length(g."content")) AS bytes FROM "gone" g GROUP BY 1 LOOP
			IF r.story IS NOT NULL THEN
				PERFORM "add_story_bytes"(r.story, -r.bytes);
			END IF;
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
DROP TRIGGER "message_versions_bytes_gone" ON "message_versions";--> statement-breakpoint
CREATE TRIGGER "message_versions_bytes_gone" AFTER DELETE ON "message_versions" REFERENCING OLD TABLE AS "gone" FOR EACH STATEMENT EXECUTE FUNCTION "story_rows_bytes"();
