-- Every ledger row names the catalogue narrator that made the call, and the day's rollup keeps each
-- narrator apart, so the admin's figures can price each narrator's tokens with its own prices. The rows
-- already there, written when one narrator wrote everything, count as `default` (a constant default:
-- no table is rewritten).
ALTER TABLE "usage_events" ADD COLUMN "narrator" text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_daily" ADD COLUMN "narrator" text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_daily" DROP CONSTRAINT "usage_daily_day_kind_provider_model_pk";--> statement-breakpoint
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_day_kind_provider_model_narrator_pk" PRIMARY KEY("day","kind","provider","model","narrator");--> statement-breakpoint
-- The rollup trigger of 0029, the day's row now keyed by narrator too.
CREATE OR REPLACE FUNCTION "usage_events_rollup"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	utc timestamp := NEW."created_at" AT TIME ZONE 'UTC';
	m date := date_trunc('month', utc)::date;
	txt bigint := NEW."input_tokens" + NEW."output_tokens";
	img bigint := NEW."image_tokens";
	inp bigint := NEW."input_tokens";
	cch bigint := NEW."cached_input_tokens";
BEGIN
	-- A row dated in an earlier month (a late write, a backfill) adds to the totals but not to this month.
	INSERT INTO "user_stats" AS s ("user_id", "text_tokens", "image_tokens", "total_tokens", "input_tokens", "cached_input_tokens",
		"month", "month_tokens", "month_image_tokens", "month_input_tokens", "month_cached_input_tokens", "turns")
	VALUES (NEW."user_id", txt, img, txt + img, inp, cch, m, txt + img, img, inp, cch, CASE WHEN NEW."kind" = 'turn' THEN 1 ELSE 0 END)
	ON CONFLICT ("user_id") DO UPDATE SET
		"text_tokens" = s."text_tokens" + EXCLUDED."text_tokens",
		"image_tokens" = s."image_tokens" + EXCLUDED."image_tokens",
		"total_tokens" = s."total_tokens" + EXCLUDED."total_tokens",
		"input_tokens" = s."input_tokens" + EXCLUDED."input_tokens",
		"cached_input_tokens" = s."cached_input_tokens" + EXCLUDED."cached_input_tokens",
		"month_tokens" = CASE
			WHEN s."month" = EXCLUDED."month" THEN s."month_tokens" + EXCLUDED."month_tokens"
			WHEN s."month" IS NULL OR s."month" < EXCLUDED."month" THEN EXCLUDED."month_tokens"
			ELSE s."month_tokens" END,
		"month_image_tokens" = CASE
			WHEN s."month" = EXCLUDED."month" THEN s."month_image_tokens" + EXCLUDED."month_image_tokens"
			WHEN s."month" IS NULL OR s."month" < EXCLUDED."month" THEN EXCLUDED."month_image_tokens"
			ELSE s."month_image_tokens" END,
		"month_input_tokens" = CASE
			WHEN s."month" = EXCLUDED."month" THEN s."month_input_tokens" + EXCLUDED."month_input_tokens"
			WHEN s."month" IS NULL OR s."month" < EXCLUDED."month" THEN EXCLUDED."month_input_tokens"
			ELSE s."month_input_tokens" END,
		"month_cached_input_tokens" = CASE
			WHEN s."month" = EXCLUDED."month" THEN s."month_cached_input_tokens" + EXCLUDED."month_cached_input_tokens"
			WHEN s."month" IS NULL OR s."month" < EXCLUDED."month" THEN EXCLUDED."month_cached_input_tokens"
			ELSE s."month_cached_input_tokens" END,
		"month" = CASE WHEN s."month" IS NULL OR s."month" < EXCLUDED."month" THEN EXCLUDED."month" ELSE s."month" END,
		"turns" = s."turns" + EXCLUDED."turns";
	INSERT INTO "user_usage_monthly" AS u ("user_id", "month", "calls", "input_tokens", "cached_input_tokens", "output_tokens", "image_tokens", "characters")
	VALUES (NEW."user_id", m, 1, inp, cch, NEW."output_tokens", img, NEW."characters")
	ON CONFLICT ("user_id", "month") DO UPDATE SET
		"calls" = u."calls" + 1,
		"input_tokens" = u."input_tokens" + EXCLUDED."input_tokens",
		"cached_input_tokens" = u."cached_input_tokens" + EXCLUDED."cached_input_tokens",
		"output_tokens" = u."output_tokens" + EXCLUDED."output_tokens",
		"image_tokens" = u."image_tokens" + EXCLUDED."image_tokens",
		"characters" = u."characters" + EXCLUDED."characters";
	INSERT INTO "usage_daily" AS d ("day", "kind", "provider", "model", "narrator", "calls", "input_tokens", "cached_input_tokens", "output_tokens", "image_tokens", "characters")
	VALUES (utc::date, NEW."kind", NEW."provider", NEW."model", NEW."narrator", 1, inp, cch, NEW."output_tokens", img, NEW."characters")
	ON CONFLICT ("day", "kind", "provider", "model", "narrator") DO UPDATE SET
		"calls" = d."calls" + 1,
		"input_tokens" = d."input_tokens" + EXCLUDED."input_tokens",
		"cached_input_tokens" = d."cached_input_tokens" + EXCLUDED."cached_input_tokens",
		"output_tokens" = d."output_tokens" + EXCLUDED."output_tokens",
		"image_tokens" = d."image_tokens" + EXCLUDED."image_tokens",
		"characters" = d."characters" + EXCLUDED."characters";
	RETURN NULL;
END $$;
