CREATE TABLE "memory_deltas" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"story_id" integer NOT NULL,
	"term" text NOT NULL,
	"holding" integer NOT NULL,
	"length" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memory_passages" (
	"id" serial PRIMARY KEY NOT NULL,
	"story_id" integer NOT NULL,
	"message_id" integer NOT NULL,
	"version" integer NOT NULL,
	"part" smallint NOT NULL,
	"turn" integer NOT NULL,
	"role" text NOT NULL,
	"text" text NOT NULL,
	"terms" text[] NOT NULL,
	"counts" integer[] NOT NULL,
	"length" integer NOT NULL,
	"live" boolean DEFAULT true NOT NULL,
	CONSTRAINT "memory_passages_message_part" UNIQUE("message_id","version","part")
);
--> statement-breakpoint
CREATE TABLE "memory_terms" (
	"story_id" integer NOT NULL,
	"term" text NOT NULL,
	"holding" integer NOT NULL,
	CONSTRAINT "memory_terms_story_id_term_pk" PRIMARY KEY("story_id","term")
);
--> statement-breakpoint
CREATE TABLE "memory_totals" (
	"story_id" integer PRIMARY KEY NOT NULL,
	"passages" integer NOT NULL,
	"length" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "memory_passages" ADD CONSTRAINT "memory_passages_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_passages" ADD CONSTRAINT "memory_passages_message_id_story_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."story_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_terms" ADD CONSTRAINT "memory_terms_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_totals" ADD CONSTRAINT "memory_totals_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memory_deltas_story_idx" ON "memory_deltas" USING btree ("story_id","id");--> statement-breakpoint
CREATE INDEX "memory_passages_story_idx" ON "memory_passages" USING btree ("story_id","message_id");--> statement-breakpoint
-- A passage is live while its message shows it: shown, at the passage's version. One statement-level
-- trigger follows every change to messages (undo and redo, erase, an edit, a new reply version); a
-- column list cannot go with a transition table, so it compares and writes only what differs.
CREATE FUNCTION "memory_passages_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "memory_passages" p SET "live" = (c."state" = 'shown' AND p."version" = c."version")
	FROM "changed" c
	WHERE p."message_id" = c."id" AND p."live" IS DISTINCT FROM (c."state" = 'shown' AND p."version" = c."version");
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "story_messages_memory_follow" AFTER UPDATE ON "story_messages" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "memory_passages_follow"();--> statement-breakpoint
-- What a deleted passage, or one turned on or off, does to the story's term statistics, as rows of
-- memory_deltas to add up (see the schema): the triggers only insert, so they never wait on the
-- statistics. New passages are counted by the statement that writes them (memoryBank.savePassages,
-- a branch's copy), which already holds what to add.
CREATE FUNCTION "memory_passages_delta"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		INSERT INTO "memory_deltas" ("story_id", "term", "holding", "length")
		SELECT o."story_id", t."term", -count(*)::int, 0 FROM "gone" o, unnest(o."terms") AS t("term")
		WHERE o."live" AND o."length" > 0 GROUP BY o."story_id", t."term"
		UNION ALL
		SELECT o."story_id", '', -count(*)::int, -sum(o."length")::bigint FROM "gone" o
		WHERE o."live" AND o."length" > 0 GROUP BY o."story_id";
	ELSE
		INSERT INTO "memory_deltas" ("story_id", "term", "holding", "length")
		SELECT f."story_id", t."term", sum(f."d")::int, 0
		FROM (SELECT a."story_id", a."terms", CASE WHEN a."live" THEN 1 ELSE -1 END AS "d" FROM "added" a JOIN "gone" o ON o."id" = a."id"
			WHERE a."live" <> o."live" AND a."length" > 0) f, unnest(f."terms") AS t("term")
		GROUP BY f."story_id", t."term"
		UNION ALL
		SELECT a."story_id", '', sum(CASE WHEN a."live" THEN 1 ELSE -1 END)::int, sum(CASE WHEN a."live" THEN a."length" ELSE -a."length" END)::bigint
		FROM "added" a JOIN "gone" o ON o."id" = a."id" WHERE a."live" <> o."live" AND a."length" > 0 GROUP BY a."story_id";
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "memory_passages_gone" AFTER DELETE ON "memory_passages" REFERENCING OLD TABLE AS "gone" FOR EACH STATEMENT EXECUTE FUNCTION "memory_passages_delta"();--> statement-breakpoint
CREATE TRIGGER "memory_passages_flipped" AFTER UPDATE ON "memory_passages" REFERENCING OLD TABLE AS "gone" NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "memory_passages_delta"();
