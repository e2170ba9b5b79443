-- A story's own generation settings: its reply length and its temperature (null follows
-- LLM_TEMPERATURE). Existing stories keep today's length.
ALTER TABLE "stories" ADD COLUMN "reply_length" text DEFAULT 'medium' NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD COLUMN "temperature" real;