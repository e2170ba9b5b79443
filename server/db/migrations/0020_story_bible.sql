CREATE TABLE "story_facts" (
	"id" serial PRIMARY KEY NOT NULL,
	"story_id" integer NOT NULL,
	"message_id" integer NOT NULL,
	"turn" integer NOT NULL,
	"entity" text NOT NULL,
	"attribute" text NOT NULL,
	"value" text NOT NULL,
	"pinned" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "story_facts" ADD CONSTRAINT "story_facts_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_facts" ADD CONSTRAINT "story_facts_message_id_story_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."story_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "story_facts_story_idx" ON "story_facts" USING btree ("story_id","id");--> statement-breakpoint
CREATE INDEX "story_facts_message_idx" ON "story_facts" USING btree ("message_id");