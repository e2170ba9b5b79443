-- The usage rollups take the player's rows before the day's shared one, and their stats row first of all
-- (it was the day's row, then the month's, then the stats row). The stored-bytes triggers take the stats
-- row too, so a turn's reply (its message counted, then its usage) held the stats row and then wanted
-- the player's month row, while a picture finishing for the same player held the month row and wanted
-- the stats row: PostgreSQL ended one of them with 'deadlock detected' (the turn answered 500). Every
-- writer of a player's rows now queues on their stats row first.
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
	INSERT INTO "usage_daily" AS d ("day", "kind", "provider", "model", "calls", "input_tokens", "cached_input_tokens", "output_tokens", "image_tokens", "characters")
	VALUES (utc::date, NEW."kind", NEW."provider", NEW."model", 1, inp, cch, NEW."output_tokens", img, NEW."characters")
	ON CONFLICT ("day", "kind", "provider", "model") DO UPDATE SET
		"calls" = d."calls" + 1,
		"input_tokens" = d."input_tokens" + EXCLUDED."input_tokens",
		"cached_input_tokens" = d."cached_input_tokens" + EXCLUDED."cached_input_tokens",
		"output_tokens" = d."output_tokens" + EXCLUDED."output_tokens",
		"image_tokens" = d."image_tokens" + EXCLUDED."image_tokens",
		"characters" = d."characters" + EXCLUDED."characters";
	RETURN NULL;
END $$;
