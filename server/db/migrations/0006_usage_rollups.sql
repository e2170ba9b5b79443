CREATE TABLE "usage_daily" (
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"calls" bigint DEFAULT 0 NOT NULL,
	"input_tokens" bigint DEFAULT 0 NOT NULL,
	"output_tokens" bigint DEFAULT 0 NOT NULL,
	"image_tokens" bigint DEFAULT 0 NOT NULL,
	"characters" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_daily_day_kind_provider_model_pk" PRIMARY KEY("day","kind","provider","model")
);
--> statement-breakpoint
CREATE TABLE "user_stats" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"text_tokens" bigint DEFAULT 0 NOT NULL,
	"image_tokens" bigint DEFAULT 0 NOT NULL,
	"total_tokens" bigint DEFAULT 0 NOT NULL,
	"month" date,
	"month_tokens" bigint DEFAULT 0 NOT NULL,
	"month_image_tokens" bigint DEFAULT 0 NOT NULL,
	"stories" integer DEFAULT 0 NOT NULL,
	"turns" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_usage_monthly" (
	"user_id" integer NOT NULL,
	"month" date NOT NULL,
	"calls" bigint DEFAULT 0 NOT NULL,
	"input_tokens" bigint DEFAULT 0 NOT NULL,
	"output_tokens" bigint DEFAULT 0 NOT NULL,
	"image_tokens" bigint DEFAULT 0 NOT NULL,
	"characters" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "user_usage_monthly_user_id_month_pk" PRIMARY KEY("user_id","month")
);
--> statement-breakpoint
ALTER TABLE "user_stats" ADD CONSTRAINT "user_stats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_usage_monthly" ADD CONSTRAINT "user_usage_monthly_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_stats_text_idx" ON "user_stats" USING btree ("text_tokens","user_id");--> statement-breakpoint
CREATE INDEX "user_stats_image_idx" ON "user_stats" USING btree ("image_tokens","user_id");--> statement-breakpoint
CREATE INDEX "user_stats_total_idx" ON "user_stats" USING btree ("total_tokens","user_id");--> statement-breakpoint
CREATE INDEX "user_stats_month_idx" ON "user_stats" USING btree ("month","month_tokens","user_id");--> statement-breakpoint
CREATE INDEX "user_stats_stories_idx" ON "user_stats" USING btree ("stories","user_id");--> statement-breakpoint
CREATE INDEX "user_stats_turns_idx" ON "user_stats" USING btree ("turns","user_id");--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "users_last_active_idx" ON "users" USING btree (coalesce("last_active", "created_at"),"id");--> statement-breakpoint
-- Backfill the rollups from the ledger and the stories already there (the triggers below keep them
-- from now on). "This month" is the UTC month at migration time, as the app counts it.
INSERT INTO "user_stats" ("user_id") SELECT "id" FROM "users";--> statement-breakpoint
UPDATE "user_stats" s SET
	"text_tokens" = u.text_tokens,
	"image_tokens" = u.image_tokens,
	"total_tokens" = u.text_tokens + u.image_tokens,
	"month" = date_trunc('month', now() AT TIME ZONE 'UTC')::date,
	"month_tokens" = u.month_tokens,
	"month_image_tokens" = u.month_image_tokens,
	"turns" = u.turns
FROM (
	SELECT "user_id",
		sum("input_tokens" + "output_tokens") AS text_tokens,
		sum("image_tokens") AS image_tokens,
		coalesce(sum("input_tokens" + "output_tokens" + "image_tokens") FILTER (WHERE "created_at" >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'), 0) AS month_tokens,
		coalesce(sum("image_tokens") FILTER (WHERE "created_at" >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'), 0) AS month_image_tokens,
		count(*) FILTER (WHERE "kind" = 'turn') AS turns
	FROM "usage_events" GROUP BY "user_id"
) u
WHERE s."user_id" = u."user_id";--> statement-breakpoint
UPDATE "user_stats" s SET "stories" = c.n FROM (SELECT "user_id", count(*) AS n FROM "stories" GROUP BY "user_id") c WHERE s."user_id" = c."user_id";--> statement-breakpoint
INSERT INTO "usage_daily" ("day", "kind", "provider", "model", "calls", "input_tokens", "output_tokens", "image_tokens", "characters")
SELECT ("created_at" AT TIME ZONE 'UTC')::date, "kind", "provider", "model", count(*), sum("input_tokens"), sum("output_tokens"), sum("image_tokens"), sum("characters")
FROM "usage_events" GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO "user_usage_monthly" ("user_id", "month", "calls", "input_tokens", "output_tokens", "image_tokens", "characters")
SELECT "user_id", date_trunc('month', "created_at" AT TIME ZONE 'UTC')::date, count(*), sum("input_tokens"), sum("output_tokens"), sum("image_tokens"), sum("characters")
FROM "usage_events" GROUP BY 1, 2;--> statement-breakpoint
-- Every ledger row adds itself to its day, its user's month and its user's totals, in the statement
-- that inserts it: no code path can forget, and a rolled-back turn rolls its rollups back too.
CREATE FUNCTION "usage_events_rollup"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	utc timestamp := NEW."created_at" AT TIME ZONE 'UTC';
	m date := date_trunc('month', utc)::date;
	txt bigint := NEW."input_tokens" + NEW."output_tokens";
	img bigint := NEW."image_tokens";
BEGIN
	INSERT INTO "usage_daily" AS d ("day", "kind", "provider", "model", "calls", "input_tokens", "output_tokens", "image_tokens", "characters")
	VALUES (utc::date, NEW."kind", NEW."provider", NEW."model", 1, NEW."input_tokens", NEW."output_tokens", img, NEW."characters")
	ON CONFLICT ("day", "kind", "provider", "model") DO UPDATE SET
		"calls" = d."calls" + 1,
		"input_tokens" = d."input_tokens" + EXCLUDED."input_tokens",
		"output_tokens" = d."output_tokens" + EXCLUDED."output_tokens",
		"image_tokens" = d."image_tokens" + EXCLUDED."image_tokens",
		"characters" = d."characters" + EXCLUDED."characters";
	INSERT INTO "user_usage_monthly" AS u ("user_id", "month", "calls", "input_tokens", "output_tokens", "image_tokens", "characters")
	VALUES (NEW."user_id", m, 1, NEW."input_tokens", NEW."output_tokens", img, NEW."characters")
	ON CONFLICT ("user_id", "month") DO UPDATE SET
		"calls" = u."calls" + 1,
		"input_tokens" = u."input_tokens" + EXCLUDED."input_tokens",
		"output_tokens" = u."output_tokens" + EXCLUDED."output_tokens",
		"image_tokens" = u."image_tokens" + EXCLUDED."image_tokens",
		"characters" = u."characters" + EXCLUDED."characters";
	-- A row dated in an earlier month (a late write, a backfill) adds to the totals but not to this month.
	INSERT INTO "user_stats" AS s ("user_id", "text_tokens", "image_tokens", "total_tokens", "month", "month_tokens", "month_image_tokens", "turns")
	VALUES (NEW."user_id", txt, img, txt + img, m, txt + img, img, CASE WHEN NEW."kind" = 'turn' THEN 1 ELSE 0 END)
	ON CONFLICT ("user_id") DO UPDATE SET
		"text_tokens" = s."text_tokens" + EXCLUDED."text_tokens",
		"image_tokens" = s."image_tokens" + EXCLUDED."image_tokens",
		"total_tokens" = s."total_tokens" + EXCLUDED."total_tokens",
		"month_tokens" = CASE
			WHEN s."month" = EXCLUDED."month" THEN s."month_tokens" + EXCLUDED."month_tokens"
			WHEN s."month" IS NULL OR s."month" < EXCLUDED."month" THEN EXCLUDED."month_tokens"
			ELSE s."month_tokens" END,
		"month_image_tokens" = CASE
			WHEN s."month" = EXCLUDED."month" THEN s."month_image_tokens" + EXCLUDED."month_image_tokens"
			WHEN s."month" IS NULL OR s."month" < EXCLUDED."month" THEN EXCLUDED."month_image_tokens"
			ELSE s."month_image_tokens" END,
		"month" = CASE WHEN s."month" IS NULL OR s."month" < EXCLUDED."month" THEN EXCLUDED."month" ELSE s."month" END,
		"turns" = s."turns" + EXCLUDED."turns";
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "usage_events_rollup" AFTER INSERT ON "usage_events" FOR EACH ROW EXECUTE FUNCTION "usage_events_rollup"();--> statement-breakpoint
CREATE FUNCTION "users_stats_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "user_stats" ("user_id") VALUES (NEW."id") ON CONFLICT DO NOTHING;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_stats_row" AFTER INSERT ON "users" FOR EACH ROW EXECUTE FUNCTION "users_stats_row"();--> statement-breakpoint
CREATE FUNCTION "stories_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		UPDATE "user_stats" SET "stories" = "stories" + 1 WHERE "user_id" = NEW."user_id";
	ELSE
		UPDATE "user_stats" SET "stories" = greatest("stories" - 1, 0) WHERE "user_id" = OLD."user_id";
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "stories_count" AFTER INSERT OR DELETE ON "stories" FOR EACH ROW EXECUTE FUNCTION "stories_count"();--> statement-breakpoint
-- Search by part of a username or email: trigram indexes where the server has pg_trgm (PostgreSQL's
-- contrib, PGlite's bundled extension); without it the search still works as a scan.
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
		CREATE EXTENSION IF NOT EXISTS pg_trgm;
		CREATE INDEX IF NOT EXISTS "users_username_trgm_idx" ON "users" USING gin ("username" gin_trgm_ops);
		CREATE INDEX IF NOT EXISTS "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);
	END IF;
EXCEPTION WHEN insufficient_privilege THEN
	RAISE NOTICE 'pg_trgm could not be created: the admin search scans the users table';
END $$;
