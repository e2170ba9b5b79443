-- Which version of each message the memory bank has cut into passages, so that a catch-up finds the
-- shown messages still to index through a partial index instead of probing every message of the
-- story. Messages already indexed (their shown version has passages) are marked as such.
ALTER TABLE "story_messages" ADD COLUMN "indexed_version" integer;--> statement-breakpoint
UPDATE "story_messages" m SET "indexed_version" = m."version"
WHERE EXISTS (SELECT 1 FROM "memory_passages" p WHERE p."message_id" = m."id" AND p."version" = m."version");--> statement-breakpoint
CREATE INDEX "story_messages_unindexed_idx" ON "story_messages" USING btree ("story_id","id") WHERE "story_messages"."state" = 'shown' and not "story_messages"."is_initial" and "story_messages"."indexed_version" is distinct from "story_messages"."version";
