-- The player's notes for the narrator (the story memory panel), sent with every turn; stories
-- made before it start with none.
ALTER TABLE "stories" ADD COLUMN "notes" text DEFAULT '' NOT NULL;