-- Story versions: every message keeps its versions once it has a second one (alternatives
-- from 'Try again', edits, a new action replacing an unanswered one); undo and erase set messages
-- aside instead of deleting them; a branch remembers its origin; a scene picture belongs to one
-- version of its message; each memory fold is kept. Existing messages become version 1 of 1, shown,
-- their pictures version 1, and each story's memory so far its first kept fold.
CREATE TABLE "message_versions" (
	"message_id" integer NOT NULL,
	"version" integer NOT NULL,
	"kind" text NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_versions_message_id_version_pk" PRIMARY KEY("message_id","version")
);
--> statement-breakpoint
CREATE TABLE "story_memory_folds" (
	"story_id" integer NOT NULL,
	"through_id" integer NOT NULL,
	"memory" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "story_memory_folds_story_id_through_id_pk" PRIMARY KEY("story_id","through_id")
);
--> statement-breakpoint
DROP INDEX "scene_images_message_id_idx";--> statement-breakpoint
ALTER TABLE "scene_images" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "branched_from_story_id" integer;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "branched_from_message_id" integer;--> statement-breakpoint
ALTER TABLE "story_messages" ADD COLUMN "state" text DEFAULT 'shown' NOT NULL;--> statement-breakpoint
ALTER TABLE "story_messages" ADD COLUMN "undone_from" integer;--> statement-breakpoint
ALTER TABLE "story_messages" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "story_messages" ADD COLUMN "versions" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "message_versions" ADD CONSTRAINT "message_versions_message_id_story_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."story_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_memory_folds" ADD CONSTRAINT "story_memory_folds_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_branched_from_story_id_stories_id_fk" FOREIGN KEY ("branched_from_story_id") REFERENCES "public"."stories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "scene_images_message_version_idx" ON "scene_images" USING btree ("message_id","version");--> statement-breakpoint
CREATE INDEX "stories_branched_from_idx" ON "stories" USING btree ("branched_from_story_id") WHERE "stories"."branched_from_story_id" is not null;--> statement-breakpoint
INSERT INTO "story_memory_folds" ("story_id", "through_id", "memory") SELECT "id", "memory_through_id", "memory" FROM "stories" WHERE "memory_through_id" > 0;
