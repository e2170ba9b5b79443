-- The story memory as chunks (server/ai/llm/memory-chunks.ts): the chunks are stored joined by
-- U+001E (the ASCII record separator), in the columns that held the one memory text. A memory
-- written before holds no separator, so it reads as one chunk; any stray U+001E in it becomes a
-- space here, so that it stays one chunk.
UPDATE "stories" SET "memory" = replace("memory", chr(30), ' ') WHERE strpos("memory", chr(30)) > 0;
--> statement-breakpoint
UPDATE "story_memory_folds" SET "memory" = replace("memory", chr(30), ' ') WHERE strpos("memory", chr(30)) > 0;
