-- Redo in pieces: the set-aside messages by the cut that set them aside, so each piece
-- of a group brought back is found without reading the story from its start.
CREATE INDEX "story_messages_undone_idx" ON "story_messages" USING btree ("story_id","undone_from","id") WHERE "story_messages"."state" = 'undone';
