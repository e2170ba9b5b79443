CREATE TABLE "narrator_contexts" (
	"message_id" integer NOT NULL,
	"version" integer NOT NULL,
	"keyed" integer[] NOT NULL,
	"on" integer[] NOT NULL,
	"record" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "narrator_contexts_message_id_version_pk" PRIMARY KEY("message_id","version")
);
--> statement-breakpoint
CREATE TABLE "story_cards" (
	"id" serial PRIMARY KEY NOT NULL,
	"story_id" integer NOT NULL,
	"name" text NOT NULL,
	"keys" jsonb NOT NULL,
	"secondary_keys" jsonb NOT NULL,
	"secondary_logic" text NOT NULL,
	"content" text NOT NULL,
	"tokens" integer NOT NULL,
	"always_on" boolean NOT NULL,
	"enabled" boolean NOT NULL,
	"priority" integer NOT NULL,
	"case_sensitive" boolean NOT NULL,
	"whole_words" boolean NOT NULL,
	"scan_depth" integer NOT NULL,
	"recursive" boolean NOT NULL,
	"sticky" integer NOT NULL,
	"cooldown" integer NOT NULL,
	"delay" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "cards_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "narrator_contexts" ADD CONSTRAINT "narrator_contexts_message_id_story_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."story_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_cards" ADD CONSTRAINT "story_cards_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "story_cards_story_id_idx" ON "story_cards" USING btree ("story_id","id");--> statement-breakpoint
-- Story cards count against the player's stored text (the storage quota) like the story's own text:
-- each card's name, keys and content. Added and removed by statement (an import adds hundreds at
-- once), an edit by row; a deleted story's cards are counted with the story, before they go.
CREATE FUNCTION "card_bytes"(name text, keys jsonb, secondary_keys jsonb, content text) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
	SELECT octet_length(name)::bigint + octet_length(keys::text) + octet_length(secondary_keys::text) + octet_length(content)
$$;--> statement-breakpoint
CREATE FUNCTION "story_cards_bytes"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	r record;
BEGIN
	IF TG_OP = 'INSERT' THEN
		FOR r IN SELECT "story_id" AS story, sum("card_bytes"("name", "keys", "secondary_keys", "content"))::bigint AS bytes FROM "added" GROUP BY 1 LOOP
			PERFORM "add_story_bytes"(r.story, r.bytes);
		END LOOP;
	ELSE
		FOR r IN SELECT "story_id" AS story, sum("card_bytes"("name", "keys", "secondary_keys", "content"))::bigint AS bytes FROM "gone" GROUP BY 1 LOOP
			PERFORM "add_story_bytes"(r.story, -r.bytes);
		END LOOP;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "story_cards_bytes_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "add_story_bytes"(NEW."story_id", "card_bytes"(NEW."name", NEW."keys", NEW."secondary_keys", NEW."content")
		- "card_bytes"(OLD."name", OLD."keys", OLD."secondary_keys", OLD."content"));
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "story_cards_bytes_added" AFTER INSERT ON "story_cards" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "story_cards_bytes"();--> statement-breakpoint
CREATE TRIGGER "story_cards_bytes_gone" AFTER DELETE ON "story_cards" REFERENCING OLD TABLE AS "gone" FOR EACH STATEMENT EXECUTE FUNCTION "story_cards_bytes"();--> statement-breakpoint
CREATE TRIGGER "story_cards_bytes_changed" AFTER UPDATE OF "name", "keys", "secondary_keys", "content" ON "story_cards" FOR EACH ROW EXECUTE FUNCTION "story_cards_bytes_row"();--> statement-breakpoint
CREATE OR REPLACE FUNCTION "stories_bytes_gone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (SELECT 1 FROM "users" WHERE "id" = OLD."user_id") THEN
		UPDATE "user_stats" SET "stored_bytes" = "stored_bytes" - (
			"story_text_bytes"(OLD."premise", OLD."memory", OLD."notes")
			+ coalesce((SELECT sum(octet_length(m."content") + coalesce((SELECT sum(octet_length(v."content")) FROM "message_versions" v WHERE v."message_id" = m."id"), 0))
				FROM "story_messages" m WHERE m."story_id" = OLD."id"), 0)
			+ coalesce((SELECT sum(octet_length(f."memory")) FROM "story_memory_folds" f WHERE f."story_id" = OLD."id"), 0)
			+ coalesce((SELECT sum("card_bytes"(c."name", c."keys", c."secondary_keys", c."content")) FROM "story_cards" c WHERE c."story_id" = OLD."id"), 0))
		WHERE "user_id" = OLD."user_id";
	END IF;
	RETURN OLD;
END $$;
--> statement-breakpoint
-- Every change to a story's cards raises its cards_version, in the same statement: a turn keeps the
-- story's card heads in memory while the version it reads with its lease is unchanged, so 1,000
-- cards are not read from the database on every turn (and every instance sees the same version).
CREATE FUNCTION "story_cards_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		UPDATE "stories" SET "cards_version" = "cards_version" + 1 WHERE "id" IN (SELECT DISTINCT "story_id" FROM "gone");
	ELSE
		UPDATE "stories" SET "cards_version" = "cards_version" + 1 WHERE "id" IN (SELECT DISTINCT "story_id" FROM "added");
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "story_cards_version_added" AFTER INSERT ON "story_cards" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "story_cards_version"();--> statement-breakpoint
CREATE TRIGGER "story_cards_version_changed" AFTER UPDATE ON "story_cards" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "story_cards_version"();--> statement-breakpoint
CREATE TRIGGER "story_cards_version_gone" AFTER DELETE ON "story_cards" REFERENCING OLD TABLE AS "gone" FOR EACH STATEMENT EXECUTE FUNCTION "story_cards_version"();
