-- The loop guard's mark on a narrator reply: 'replaced' when its first answer repeated the
-- story and was asked again, 'marked' when the kept answer still repeats. Per version, like content.
ALTER TABLE "message_versions" ADD COLUMN "loop_guard" text;--> statement-breakpoint
ALTER TABLE "story_messages" ADD COLUMN "loop_guard" text;