CREATE TABLE "stories" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"title" text,
	"premise" text NOT NULL,
	"memory" text DEFAULT '' NOT NULL,
	"memory_through_id" integer DEFAULT 0 NOT NULL,
	"generating_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "story_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"story_id" integer NOT NULL,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"turn" integer NOT NULL,
	"is_initial" boolean DEFAULT false NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "story_id" integer;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "kind" text DEFAULT 'turn' NOT NULL;--> statement-breakpoint
ALTER TABLE "stories" ADD CONSTRAINT "stories_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_messages" ADD CONSTRAINT "story_messages_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stories_user_id_idx" ON "stories" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "story_messages_story_id_idx" ON "story_messages" USING btree ("story_id","id");--> statement-breakpoint
ALTER TABLE "usage_events" ADD CONSTRAINT "usage_events_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_events_created_idx" ON "usage_events" USING btree ("created_at");