// Writing an imported story in one transaction: the story, its messages in order, the memory's
// reach and the pictures the importer may show. Either all of it lands or none of it does.
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client';
import type { MessageVersionKind } from '@shared/schemas/story-versions';
import { messageVersions, sceneImages, stories, storyMessages } from '../schema';
import { assertWithinQuotas, countRowsInBulk, type QuotaCheck } from './quotas';

export interface ImportedMessage {
  role: 'user' | 'assistant';
  content: string;
  turn: number;
  isInitial: boolean;
  createdAt: Date;
  /** A stored picture (by content hash) and its description, shown only if the importer may. */
  image?: { hash: string; alt: string };
  /** Every version when the message has several, oldest first, and the one shown (1-based). */
  versions?: Array<{ kind: MessageVersionKind; content: string; createdAt: Date }>;
  version?: number;
}

/** Rows per insert: 7 parameters a row stays far below PostgreSQL's 65,535. */
const BATCH = 1000;

export function createStoryFilesRepository(db: Db) {
  return {
    async importStory(input: {
      userId: number;
      title: string;
      premise: string;
      memory: string;
      /** How many of the messages the memory summarises. */
      memoryCovers: number;
      notes: string;
      createdAt: Date;
      now: Date;
      messages: ImportedMessage[];
      /** Throws QuotaExceeded (keeping nothing) when the story takes the account past these. */
      quotas: QuotaCheck;
    }): Promise<number> {
      return db.transaction(async (tx) => {
        await countRowsInBulk(tx);
        const [story] = await tx
          .insert(stories)
          .values({ userId: input.userId, title: input.title, premise: input.premise, memory: input.memory, notes: input.notes, createdAt: input.createdAt, updatedAt: input.now })
          .returning({ id: stories.id });
        // One story too many is known before its messages are written.
        await assertWithinQuotas(tx, input.userId, { maxStories: input.quotas.maxStories });
        const ids: number[] = [];
        for (let start = 0; start < input.messages.length; start += BATCH) {
          const rows = await tx
            .insert(storyMessages)
            .values(
              input.messages.slice(start, start + BATCH).map((m) => ({
                storyId: story.id,
                role: m.role,
                content: m.content,
                turn: m.turn,
                isInitial: m.isInitial,
                attempts: m.role === 'user' ? 1 : 0,
                version: m.version ?? 1,
                versions: m.versions?.length ?? 1,
                createdAt: m.createdAt,
              })),
            )
            .returning({ id: storyMessages.id });
          // Ids follow insertion order within one multi-row insert; sorted to be sure.
          ids.push(...rows.map((r) => r.id).sort((a, b) => a - b));
        }
        const versionRows = input.messages.flatMap((m, i) =>
          (m.versions ?? []).map((v, n) => ({ messageId: ids[i], version: n + 1, kind: v.kind, content: v.content, createdAt: v.createdAt })),
        );
        for (let start = 0; start < versionRows.length; start += BATCH) await tx.insert(messageVersions).values(versionRows.slice(start, start + BATCH));
        if (input.memoryCovers > 0) {
          await tx.update(stories).set({ memoryThroughId: ids[input.memoryCovers - 1] }).where(eq(stories.id, story.id));
        }
        // A picture comes back only for a player who already has it in a story of theirs: a content
        // hash seen in someone's shared link must not make their picture the importer's.
        const wanted = [...new Set(input.messages.flatMap((m) => (m.image ? [m.image.hash] : [])))];
        if (wanted.length > 0) {
          const owned = await tx
            .selectDistinct({ hash: sceneImages.assetHash })
            .from(sceneImages)
            .where(and(eq(sceneImages.userId, input.userId), eq(sceneImages.status, 'ready'), inArray(sceneImages.assetHash, wanted)));
          const mine = new Set(owned.map((r) => r.hash));
          const pictures = input.messages.flatMap((m, i) =>
            m.image && mine.has(m.image.hash) && m.role === 'assistant'
              ? [{ userId: input.userId, storyId: story.id, messageId: ids[i], version: m.version ?? 1, status: 'ready' as const, scene: m.image.alt, assetHash: m.image.hash, attempts: 1, createdAt: input.now, updatedAt: input.now }]
              : [],
          );
          if (pictures.length > 0) await tx.insert(sceneImages).values(pictures);
        }
        await assertWithinQuotas(tx, input.userId, input.quotas);
        return story.id;
      });
    },
  };
}
export type StoryFilesRepository = ReturnType<typeof createStoryFilesRepository>;
