CREATE TABLE "speech_clips" (
	"id" serial PRIMARY KEY NOT NULL,
	"message_id" integer NOT NULL,
	"voice" text NOT NULL,
	"text_hash" text NOT NULL,
	"mime" text NOT NULL,
	"audio" "bytea" NOT NULL,
	"characters" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "characters" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "speech_clips" ADD CONSTRAINT "speech_clips_message_id_story_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."story_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "speech_clips_message_voice_text_idx" ON "speech_clips" USING btree ("message_id","voice","text_hash");