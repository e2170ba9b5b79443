-- The memory bank's vectors: one per passage, from the embeddings provider, compared by
-- cosine in the process (no pgvector: PGlite has none). seq orders writes for the vector cache's
-- incremental reads.
CREATE TABLE "memory_vectors" (
	"passage_id" integer PRIMARY KEY NOT NULL,
	"story_id" integer NOT NULL,
	"model" text NOT NULL,
	"seq" bigserial NOT NULL,
	"vector" "bytea" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "memory_vectors" ADD CONSTRAINT "memory_vectors_passage_id_memory_passages_id_fk" FOREIGN KEY ("passage_id") REFERENCES "public"."memory_passages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memory_vectors" ADD CONSTRAINT "memory_vectors_story_id_stories_id_fk" FOREIGN KEY ("story_id") REFERENCES "public"."stories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memory_vectors_story_seq_idx" ON "memory_vectors" USING btree ("story_id","seq");