-- What a turn cost: the ledger keeps the cached part of each call's input and the reply a
-- call was for; each reply version keeps its usage; the rollups keep input and cached input apart so
-- that every dollar figure is priced at LLM_PRICE_* (input, cached input, output) by one function.
ALTER TABLE "message_versions" ADD COLUMN "usage" jsonb;--> statement-breakpoint
ALTER TABLE "story_messages" ADD COLUMN "usage" jsonb;--> statement-breakpoint
ALTER TABLE "usage_daily" ADD COLUMN "cached_input_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "message_id" integer;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "cached_input_tokens" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_stats" ADD COLUMN "input_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_stats" ADD COLUMN "cached_input_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_stats" ADD COLUMN "month_input_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_stats" ADD COLUMN "month_cached_input_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_usage_monthly" ADD COLUMN "cached_input_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "usage_events_message_idx" ON "usage_events" USING btree ("message_id") WHERE "usage_events"."message_id" is not null;--> statement-breakpoint
-- The rollup adds the cached part too, and user_stats now keeps the input share of its text tokens.
CREATE OR REPLACE FUNCTION "usage_events_rollup"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	utc timestamp := NEW."created_at" AT TIME ZONE 'UTC';
	m date := date_trunc('month', utc)::date;
	txt bigint := NEW."input_tokens" + NEW."output_tokens";
	img bigint := NEW."image_tokens";
	inp bigint := NEW."input_tokens";
	cch bigint := NEW."cached_input_tokens";
BEGIN
	INSERT INTO "usage_daily" AS d ("day", "kind", "provider", "model", "calls", "input_tokens", "cached_input_tokens", "output_tokens", "image_tokens", "characters")
	VALUES (utc::date, NEW."kind", NEW."provider", NEW."model", 1, inp, cch, NEW."output_tokens", img, NEW."characters")
	ON CONFLICT ("day", "kind", "provider", "model") DO UPDATE SET
		"calls" = d."calls" + 1,
		"input_tokens" = d."input_tokens" + EXCLUDED."input_tokens",
		"cached_input_tokens" = d."cached_input_tokens" + EXCLUDED."cached_input_tokens",
		"output_tokens" = d."output_tokens" + EXCLUDED."output_tokens",
		"image_tokens" = d."image_tokens" + EXCLUDED."image_tokens",
		"characters" = d."characters" + EXCLUDED."characters";
	INSERT INTO "user_usage_monthly" AS u ("user_id", "month", "calls", "input_tokens", "cached_input_tokens", "output_tokens", "image_tokens", "characters")
	VALUES (NEW."user_id", m, 1, inp, cch, NEW."output_tokens", img, NEW."characters")
	ON CONFLICT ("user_id", "month") DO UPDATE SET
		"calls" = u."calls" + 1,
		"input_tokens" = u."input_tokens" + EXCLUDED."input_tokens",
		"cached_input_tokens" = u."cached_input_tokens" + EXCLUDED."cached_input_tokens",
		"output_tokens" = u."output_tokens" + EXCLUDED."output_tokens",
		"image_tokens" = u."image_tokens" + EXCLUDED."image_tokens",
		"characters" = u."characters" + EXCLUDED."characters";
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
	RETURN NULL;
END $$;--> statement-breakpoint
-- The input share of what each player has spent so far (no cache was recorded before now).
UPDATE "user_stats" s SET "input_tokens" = b.all_input, "month_input_tokens" = b.month_input
FROM (
	SELECT u."user_id", sum(u."input_tokens") AS all_input,
		sum(CASE WHEN u."month" = st."month" THEN u."input_tokens" ELSE 0 END) AS month_input
	FROM "user_usage_monthly" u JOIN "user_stats" st ON st."user_id" = u."user_id"
	GROUP BY u."user_id"
) b
WHERE s."user_id" = b."user_id";
