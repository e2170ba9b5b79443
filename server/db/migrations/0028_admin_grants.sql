-- Admins without a race: admin_grants records the rights granted from the command line (`npm run admin -- grant`), so start-up revokes only the admins ADMIN_USERNAMES made and no longer lists; a table of its own, not a users column, so the users table (which every release's code writes) keeps its shape.
CREATE TABLE "admin_grants" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "admin_grants" ADD CONSTRAINT "admin_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;