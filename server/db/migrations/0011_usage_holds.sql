CREATE TABLE "usage_holds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"tokens" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_stats" ADD COLUMN "speech_month" date;--> statement-breakpoint
ALTER TABLE "user_stats" ADD COLUMN "month_speech_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_holds" ADD CONSTRAINT "usage_holds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_holds_user_idx" ON "usage_holds" USING btree ("user_id","expires_at");--> statement-breakpoint
-- Speech and transcription count toward the monthly allowance in allowance tokens: a spoken
-- character is a quarter of a token (text as a model would read it), a transcript's character two (about
-- 25 tokens a second of speech, Whisper's price at the spec's text rate), at least 25 a recording. Kept
-- in their own columns: the token columns stay what the models reported.
CREATE FUNCTION "usage_events_speech_allowance"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	m date := date_trunc('month', NEW."created_at" AT TIME ZONE 'UTC')::date;
	t bigint := CASE WHEN NEW."kind" = 'speech' THEN ceil(NEW."characters" / 4.0)::bigint ELSE greatest(25, 2 * NEW."characters") END;
BEGIN
	UPDATE "user_stats" SET
		"month_speech_tokens" = CASE
			WHEN "speech_month" = m THEN "month_speech_tokens" + t
			WHEN "speech_month" IS NULL OR "speech_month" < m THEN t
			ELSE "month_speech_tokens" END,
		"speech_month" = CASE WHEN "speech_month" IS NULL OR "speech_month" < m THEN m ELSE "speech_month" END
	WHERE "user_id" = NEW."user_id";
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "usage_events_speech_allowance" AFTER INSERT ON "usage_events" FOR EACH ROW
	WHEN (NEW."kind" IN ('speech', 'transcription') AND NEW."user_id" IS NOT NULL)
	EXECUTE FUNCTION "usage_events_speech_allowance"();--> statement-breakpoint
-- This month's speech so far, for the players who already have some.
UPDATE "user_stats" s SET "speech_month" = b.m, "month_speech_tokens" = b.t
FROM (
	SELECT "user_id", date_trunc('month', now() AT TIME ZONE 'UTC')::date AS m,
		sum(CASE WHEN "kind" = 'speech' THEN ceil("characters" / 4.0)::bigint ELSE greatest(25, 2 * "characters") END) AS t
	FROM "usage_events"
	WHERE "kind" IN ('speech', 'transcription') AND "user_id" IS NOT NULL
		AND "created_at" >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
	GROUP BY "user_id"
) b WHERE s."user_id" = b."user_id";
