CREATE TABLE "scenario_likes" (
	"scenario_id" text NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scenario_likes_scenario_id_user_id_pk" PRIMARY KEY("scenario_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "scenarios" ADD COLUMN "likes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "scenario_likes" ADD CONSTRAINT "scenario_likes_scenario_id_scenarios_id_fk" FOREIGN KEY ("scenario_id") REFERENCES "public"."scenarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scenario_likes" ADD CONSTRAINT "scenario_likes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scenario_likes_user_idx" ON "scenario_likes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "scenarios_public_likes_idx" ON "scenarios" USING btree ("likes" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "scenarios"."visibility" = 'public';--> statement-breakpoint
-- A scenario's likes counted by the rows themselves, in the statement that writes them: a like given,
-- taken back, or gone with its player's account (a cascade) moves the count, which Discover sorts by.
CREATE OR REPLACE FUNCTION "scenario_likes_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		UPDATE "scenarios" SET "likes" = "likes" + 1 WHERE "id" = NEW."scenario_id";
	ELSE
		UPDATE "scenarios" SET "likes" = "likes" - 1 WHERE "id" = OLD."scenario_id";
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "scenario_likes_count" AFTER INSERT OR DELETE ON "scenario_likes"
	FOR EACH ROW EXECUTE FUNCTION "scenario_likes_count"();
