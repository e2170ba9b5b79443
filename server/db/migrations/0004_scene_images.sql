CREATE TABLE "image_assets" (
	"hash" text PRIMARY KEY NOT NULL,
	"webp" "bytea" NOT NULL,
	"thumbnail" "bytea" NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scene_images" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"story_id" integer NOT NULL,
	"message_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"scene" text NOT NULL,
	"asset_hash" text,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "story_visuals" (
	"story_id" integer PRIMARY KEY NOT NULL,
	"art_style" text DEFAULT '' NOT NULL,
	"player" text DEFAULT '' NOT NULL,
	"characters" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"seed" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_preferences" ADD COLUMN "image_generation" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "scene_images" ADD CONSTRAINT "scene_images_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scene_images" ADD CONSTRAINT "scene_images_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scene_images" ADD CONSTRAINT "scene_images_message_id_story_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."story_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scene_images" ADD CONSTRAINT "scene_images_asset_hash_image_assets_hash_fk" FOREIGN KEY ("asset_hash") REFERENCES "public"."image_assets"("hash") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "story_visuals" ADD CONSTRAINT "story_visuals_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "scene_images_message_id_idx" ON "scene_images" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "scene_images_story_id_idx" ON "scene_images" USING btree ("story_id","message_id");--> statement-breakpoint
CREATE INDEX "scene_images_user_created_idx" ON "scene_images" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "scene_images_asset_hash_idx" ON "scene_images" USING btree ("asset_hash");