-- An imported story is written in pieces and hidden until it is whole (issue 23): see repositories/story-files.ts.
ALTER TABLE "stories" ADD COLUMN "importing" boolean DEFAULT false NOT NULL;