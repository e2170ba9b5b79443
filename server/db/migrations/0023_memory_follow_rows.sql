-- A passage follows its message (live while the message shows it) by a row-level trigger that fires
-- only when a message's state or version changes, in place of 0019's statement-level trigger, which
-- ran on every statement that updated story_messages (three per turn: the lease, the action's attempt
-- and the reply all update messages) even when no state or version changed.
DROP TRIGGER "story_messages_memory_follow" ON "story_messages";--> statement-breakpoint
DROP FUNCTION "memory_passages_follow"();--> statement-breakpoint
CREATE FUNCTION "memory_passages_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "memory_passages" SET "live" = (NEW."state" = 'shown' AND "version" = NEW."version")
	WHERE "message_id" = NEW."id" AND "live" IS DISTINCT FROM (NEW."state" = 'shown' AND "version" = NEW."version");
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "story_messages_memory_follow" AFTER UPDATE OF "state", "version" ON "story_messages" FOR EACH ROW
	WHEN (OLD."state" IS DISTINCT FROM NEW."state" OR OLD."version" IS DISTINCT FROM NEW."version")
	EXECUTE FUNCTION "memory_passages_follow"();
