-- A share's messages in pieces: one jsonb value of a 5 MB snapshot took the embedded
-- database's one session for 200 ms to write (and as long again for its quota trigger to measure
-- it as text), every other request waiting. Now they are runs of messages as JSON text, a few
-- hundred KB each, each written in its own transaction while `writing` hides the share; and the
-- pictures a share shows are rows, so removing a picture no longer searches every share's text.
CREATE TABLE "shared_story_pieces" (
	"share_id" text NOT NULL,
	"user_id" integer NOT NULL,
	"piece" integer NOT NULL,
	"messages" text NOT NULL,
	CONSTRAINT "shared_story_pieces_share_id_piece_pk" PRIMARY KEY("share_id","piece")
);
--> statement-breakpoint
CREATE TABLE "shared_story_pictures" (
	"share_id" text NOT NULL,
	"asset_hash" text NOT NULL,
	CONSTRAINT "shared_story_pictures_share_id_asset_hash_pk" PRIMARY KEY("share_id","asset_hash")
);
--> statement-breakpoint
ALTER TABLE "shared_stories" ADD COLUMN "pieces" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shared_stories" ADD COLUMN "writing" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "shared_story_pieces" ADD CONSTRAINT "shared_story_pieces_share_id_shared_stories_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shared_stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shared_story_pictures" ADD CONSTRAINT "shared_story_pictures_share_id_shared_stories_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."shared_stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shared_story_pictures_asset_hash_idx" ON "shared_story_pictures" USING btree ("asset_hash");--> statement-breakpoint
-- The existing shares move over before any counting trigger exists: their bytes are counted already
-- (0013 counted a snapshot's messages as their JSON text, the text each becomes here as its one piece).
INSERT INTO "shared_story_pieces" ("share_id", "user_id", "piece", "messages") SELECT "id", "user_id", 0, "messages"::text FROM "shared_stories";--> statement-breakpoint
UPDATE "shared_stories" SET "pieces" = 1;--> statement-breakpoint
INSERT INTO "shared_story_pictures" ("share_id", "asset_hash")
	SELECT DISTINCT s."id", substring(m->>'image' from '/images/([^/.]+)\.webp$')
	FROM "shared_stories" s, jsonb_array_elements(s."messages") m
	WHERE substring(m->>'image' from '/images/([^/.]+)\.webp$') IS NOT NULL;--> statement-breakpoint
DROP TRIGGER "shared_stories_quota" ON "shared_stories";--> statement-breakpoint
ALTER TABLE "shared_stories" DROP COLUMN "messages";--> statement-breakpoint
-- A live link counts one share and its title's bytes; its pieces count their own.
CREATE OR REPLACE FUNCTION "shared_stories_quota"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		UPDATE "user_stats" SET "shares" = "shares" + 1, "stored_bytes" = "stored_bytes" + octet_length(NEW."title") WHERE "user_id" = NEW."user_id";
	ELSIF TG_OP = 'DELETE' THEN
		UPDATE "user_stats" SET "shares" = greatest("shares" - 1, 0), "stored_bytes" = "stored_bytes" - octet_length(OLD."title") WHERE "user_id" = OLD."user_id";
	ELSE
		UPDATE "user_stats" SET "stored_bytes" = "stored_bytes" + octet_length(NEW."title") - octet_length(OLD."title") WHERE "user_id" = NEW."user_id";
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "shared_stories_quota" AFTER INSERT OR DELETE OR UPDATE OF "title" ON "shared_stories" FOR EACH ROW EXECUTE FUNCTION "shared_stories_quota"();--> statement-breakpoint
-- A piece's bytes, without reading its text (octet_length of a stored text is in its header).
CREATE FUNCTION "shared_story_pieces_bytes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		UPDATE "user_stats" SET "stored_bytes" = "stored_bytes" + octet_length(NEW."messages") WHERE "user_id" = NEW."user_id";
	ELSE
		UPDATE "user_stats" SET "stored_bytes" = "stored_bytes" - octet_length(OLD."messages") WHERE "user_id" = OLD."user_id";
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "shared_story_pieces_bytes" AFTER INSERT OR DELETE ON "shared_story_pieces" FOR EACH ROW EXECUTE FUNCTION "shared_story_pieces_bytes"();
