ALTER TABLE "scenarios" ADD COLUMN "remix_of_id" text;--> statement-breakpoint
ALTER TABLE "scenarios" ADD COLUMN "remix_of_title" text;--> statement-breakpoint
ALTER TABLE "scenarios" ADD COLUMN "remix_of_author" text;