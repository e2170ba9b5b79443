-- A story's term statistics keep at most 8,192 terms (MAX_STORY_TERMS in
-- repositories/memory-statistics.ts): memory_totals says how many it keeps and whether one was left
-- out (saturated). A story that already keeps more keeps those most of its passages hold and is
-- saturated; every other story keeps all it has.
ALTER TABLE "memory_totals" ADD COLUMN "terms" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "memory_totals" ADD COLUMN "saturated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "memory_totals" m SET "terms" = least(c."n", 8192), "saturated" = c."n" > 8192
FROM (SELECT "story_id", count(*)::int AS "n" FROM "memory_terms" GROUP BY "story_id") c
WHERE c."story_id" = m."story_id";--> statement-breakpoint
DELETE FROM "memory_terms" t USING (
	SELECT "story_id", "term", row_number() OVER (PARTITION BY "story_id" ORDER BY "holding" DESC, "term") AS "place"
	FROM "memory_terms" WHERE "story_id" IN (SELECT "story_id" FROM "memory_totals" WHERE "saturated")
) r
WHERE t."story_id" = r."story_id" AND t."term" = r."term" AND r."place" > 8192;--> statement-breakpoint
-- The changes a deleted story's passages left: nothing ever added them in, or removed them.
DELETE FROM "memory_deltas" d WHERE NOT EXISTS (SELECT 1 FROM "stories" s WHERE s."id" = d."story_id");--> statement-breakpoint
-- What a deleted passage, or one turned on or off, does to the story's term statistics, as rows of
-- memory_deltas to add up (see the schema), now only for what the statistics keep: nothing for a
-- story being deleted (hidden: `importing`), whose statistics go with it, and in a saturated story
-- nothing for a term it does not keep, which it never will. So an erase or a deletion writes at most
-- a row per term kept, whatever words its passages hold.
CREATE OR REPLACE FUNCTION "memory_passages_delta"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		WITH "counted" AS (
			SELECT s."id", coalesce(t."saturated", false) AS "saturated"
			FROM "stories" s LEFT JOIN "memory_totals" t ON t."story_id" = s."id"
			WHERE s."id" IN (SELECT DISTINCT "story_id" FROM "gone") AND NOT s."importing"
		), "changed" AS (
			SELECT o."story_id", o."terms", -1 AS "d", o."length" FROM "gone" o
			WHERE o."live" AND o."length" > 0 AND o."story_id" IN (SELECT "id" FROM "counted")
		)
		INSERT INTO "memory_deltas" ("story_id", "term", "holding", "length")
		SELECT c."story_id", c."term", c."holding", 0
		FROM (SELECT f."story_id", t."term", sum(f."d")::int AS "holding" FROM "changed" f, unnest(f."terms") AS t("term")
			GROUP BY f."story_id", t."term") c
		JOIN "counted" k ON k."id" = c."story_id"
		WHERE NOT k."saturated" OR EXISTS (SELECT 1 FROM "memory_terms" m WHERE m."story_id" = c."story_id" AND m."term" = c."term")
		UNION ALL
		SELECT "story_id", '', sum("d")::int, sum("d" * "length")::bigint FROM "changed" GROUP BY "story_id";
	ELSE
		WITH "counted" AS (
			SELECT s."id", coalesce(t."saturated", false) AS "saturated"
			FROM "stories" s LEFT JOIN "memory_totals" t ON t."story_id" = s."id"
			WHERE s."id" IN (SELECT DISTINCT "story_id" FROM "added") AND NOT s."importing"
		), "changed" AS (
			SELECT a."story_id", a."terms", CASE WHEN a."live" THEN 1 ELSE -1 END AS "d", a."length"
			FROM "added" a JOIN "gone" o ON o."id" = a."id"
			WHERE a."live" <> o."live" AND a."length" > 0 AND a."story_id" IN (SELECT "id" FROM "counted")
		)
		INSERT INTO "memory_deltas" ("story_id", "term", "holding", "length")
		SELECT c."story_id", c."term", c."holding", 0
		FROM (SELECT f."story_id", t."term", sum(f."d")::int AS "holding" FROM "changed" f, unnest(f."terms") AS t("term")
			GROUP BY f."story_id", t."term") c
		JOIN "counted" k ON k."id" = c."story_id"
		WHERE NOT k."saturated" OR EXISTS (SELECT 1 FROM "memory_terms" m WHERE m."story_id" = c."story_id" AND m."term" = c."term")
		UNION ALL
		SELECT "story_id", '', sum("d")::int, sum("d" * "length")::bigint FROM "changed" GROUP BY "story_id";
	END IF;
	RETURN NULL;
END $$;
