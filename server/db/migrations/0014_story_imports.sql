-- An imported story is written in pieces and hidden until it is whole: see repositories/story-files.ts.
ALTER TABLE "stories" ADD COLUMN "importing" boolean DEFAULT false NOT NULL;