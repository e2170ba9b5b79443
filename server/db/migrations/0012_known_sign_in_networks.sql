-- Networks each account has signed in from: a correct password from one of them passes the
-- account's failed-login lock, so guesses from elsewhere cannot lock the owner out. Gone with the account.
CREATE TABLE "known_sign_in_networks" (
	"user_id" integer NOT NULL,
	"network" text NOT NULL,
	"last_sign_in_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "known_sign_in_networks_user_id_network_pk" PRIMARY KEY("user_id","network")
);
--> statement-breakpoint
ALTER TABLE "known_sign_in_networks" ADD CONSTRAINT "known_sign_in_networks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;