// Reading stories (current state, bookmark recovery) and naming them. Titles are written by the
// narrator once and kept; the builtin narrator, a failed call or a spent allowance fall back to a
// title made from the premise, so the share dialog always gets one.
import { clampTitle, fallbackTitle } from '@server/ai/llm/titles';
import { cutMiddle } from '@server/ai/llm/context';
import { memoryText, splitChunks, storedMemory } from '@server/ai/llm/memory-chunks';
import { TITLE_SYSTEM_PROMPT, titleUserPrompt } from '@server/ai/llm/prompts';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import { NarratorError } from '@server/ai/llm/types';
import type { Repositories } from '@server/db/repositories';
import type { StoryRecord } from '@server/db/repositories/stories';
import { DomainError } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import { STORY_MESSAGES, type StoryRecoverResponse, type StoryStateResponse } from '@shared/schemas/story';
import type { StoryMemory, StoryMemoryBody } from '@shared/schemas/story-memory';
import type { Allowance } from '../limits/allowance';
import type { ImageService } from '../images';
import { redact } from '@server/kernel/redact';
import { recordNarratorCall } from '../limits/usage-ledger';
import { notFound, storyBusy } from './errors';
import type { Log } from '@server/kernel/log';
import type { StoryAnswers } from './story-answers';
import type { NarratorService } from '../narrators/narrators';
import { storySettings } from './story-settings';

interface StoryDeps {
  repos: Repositories;
  /** The story's pictures for its reads. */
  images: Pick<ImageService, 'forStory'>;
  /** Writes the messages' answer bytes around their kept texts (http/presenters/story-json.ts). */
  storyJson: StoryAnswers;
  /** A title is a paid call: past the player's hour or month it falls back to the premise. */
  allowance: Pick<Allowance, 'admitOrNull'>;
  now: () => Date;
  /** Makes committed writes durable (PGlite WAL fsync): generate-title writes under a GET. */
  flush: () => Promise<void>;
  log: Log;
  /** The narrator that writes each story, whose defaults its settings show; and a player's choice checked. */
  narrators: Pick<NarratorService, 'ofStory' | 'choose' | 'provider' | 'forTaskOf'>;
}

const TITLE_MAX_OUTPUT_TOKENS = 24;
/**
 * The premise's and the opening's share of a title request, cut in the middle past them: with the
 * instructions and the reply, a title request stays inside the smallest window the narrator may have
 * (LLM_MAX_OUTPUT_TOKENS + 2,048), whatever the premise's script or an imported opening's length.
 */
const TITLE_PREMISE_TOKENS = 600;
const TITLE_OPENING_TOKENS = 700;
/** What a title request may cost beyond its reply: the instructions, the premise and the opening. */
const TITLE_PROMPT_TOKENS = 2_200;
const TITLE_TEMPERATURE = 0.7;

/** The first line of a model's answer without quotes, labels or closing punctuation. */
export function cleanTitle(raw: string): string {
  const line = raw.split('\n').find((l) => l.trim()) ?? '';
  const stripped = line
    .replace(/[*#_`]/g, '')
    .replace(/^\s*(title\s*:)?\s*/i, '')
    .trim()
    .replace(/^["'“”‘’]+|["'“”‘’]+$/g, '')
    .replace(/[.!,;:]+$/, '')
    .trim();
  return clampTitle(stripped);
}

/** The memory panel's answer: the memory's text as one (its chunks joined by a blank line), and its chunks. */
function memoryAnswer(story: StoryRecord): StoryMemory {
  return {
    premise: story.premise,
    summary: memoryText(story.memory),
    notes: story.notes,
    chunks: splitChunks(story.memory),
  };
}

export function createStoryService(deps: StoryDeps) {
  const { repos } = deps;
  const { storyJson } = deps;

  async function owned(userId: number, storyId: number) {
    const story = await repos.stories.findOwned(storyId, userId);
    if (!story) throw notFound();
    return story;
  }

  return {
    /** The story memory panel: what the narrator works from besides the recent turns. */
    async memory(userId: number, storyId: number): Promise<StoryMemory> {
      return memoryAnswer(await owned(userId, storyId));
    },

    /**
     * Saves the panel's fields given; the next turn works from them. 409 while a reply is being
     * written. A summary that reads as the memory does now (its chunks joined by a blank line: the
     * form sends it back unedited) leaves the chunks, and the prompt's cached prefix, as they are;
     * an edited one becomes the memory's one chunk (the player's words win over a fold landing
     * meanwhile, as they always did).
     */
    async saveMemory(userId: number, storyId: number, body: StoryMemoryBody): Promise<StoryMemory> {
      const { summary, ...rest } = body;
      const edited = summary !== undefined && summary !== memoryText((await owned(userId, storyId)).memory);
      const saved = await repos.stories.updateMemory({
        storyId,
        userId,
        now: deps.now(),
        ...rest,
        ...(edited ? { memory: storedMemory([summary]) } : {}),
      });
      if (saved === 'missing') throw notFound();
      if (saved === 'busy') throw storyBusy();
      return memoryAnswer(saved);
    },

    ...storySettings(deps, owned),

    async currentState(userId: number, storyId: number): Promise<Buffer> {
      await owned(userId, storyId);
      // Read the lease first: a reply saved in between then shows as saved, never as lost.
      return this.stateOf(storyId, await repos.stories.isGenerating(storyId, deps.now()));
    },

    /**
     * The owner's story as current-state answers it (StoryStateResponse as JSON bytes: see
     * story-answers.ts), once ownership and the lease are known (a change just made under them).
     */
    async stateOf(storyId: number, replying: boolean): Promise<Buffer> {
      const [read, pictures, canRedo] = await Promise.all([
        storyJson.read(storyId),
        deps.images.forStory(storyId),
        repos.storyVersions.canRedo(storyId),
      ]);
      const rest: Omit<StoryStateResponse, 'messages'> = {
        replying,
        images: pictures.images,
        storyImage: pictures.storyImage,
        canRedo,
      };
      return storyJson.answer(read, pictures.byMessage, rest);
    },

    /** StoryRecoverResponse as JSON bytes (see story-answers.ts). */
    async recover(userId: number, storyId: number, messageId: number | undefined): Promise<Buffer> {
      const story = await owned(userId, storyId);
      const [read, pictures] = await Promise.all([storyJson.read(storyId), deps.images.forStory(storyId)]);
      // 'Try again' replaces a reply under a new id, so a bookmark may name an id that is gone:
      // any id within the story's span still recovers it (only this story's messages are sent).
      const { heads } = read;
      if (
        messageId !== undefined &&
        (heads.length === 0 || messageId < heads[0].id || messageId > heads[heads.length - 1].id)
      ) {
        throw new DomainError('notFound', ERROR_CODES.notFound, STORY_MESSAGES.messageNotFound);
      }
      const rest: Omit<StoryRecoverResponse, 'messages'> = {
        images: pictures.images,
        story: { id: story.id, title: story.title ?? fallbackTitle(story.premise), storyImage: pictures.storyImage },
      };
      return storyJson.answer(read, pictures.byMessage, rest);
    },

    /**
     * The story's title, asked of the narrator once and kept. `mayPay`: the request came from the app's
     * own pages; one that another site's page could have made (a GET: a link or an <img>) is answered
     * from what is stored, or the premise's title, without a provider call.
     */
    async generateTitle(userId: number, storyId: number, mayPay: boolean): Promise<{ title: string }> {
      const story = await owned(userId, storyId);
      if (story.title) return { title: story.title };
      const fallback = fallbackTitle(story.premise);
      if (!mayPay) return { title: fallback };
      // An imported opening may be 20,000 characters: cut to its head and tail, the request fits any window.
      const count = await loadTokenCounter();
      const opening = cutMiddle((await repos.stories.firstReply(storyId))?.content ?? '', TITLE_OPENING_TOKENS, count);
      const request = {
        system: TITLE_SYSTEM_PROMPT,
        messages: [
          {
            role: 'user' as const,
            content: titleUserPrompt(cutMiddle(story.premise, TITLE_PREMISE_TOKENS, count), opening),
          },
        ],
        maxOutputTokens: TITLE_MAX_OUTPUT_TOKENS,
        temperature: TITLE_TEMPERATURE,
        task: { kind: 'title' as const, premise: story.premise, opening },
      };
      // The operator's narrator for titles, else the story's own.
      const titler = await deps.narrators.forTaskOf('title', async () => story);
      const provider = deps.narrators.provider(titler);
      const hold = await deps.allowance.admitOrNull(userId, 'title', TITLE_PROMPT_TOKENS + TITLE_MAX_OUTPUT_TOKENS);
      if (!hold) return { title: fallback };
      try {
        const result = await provider.generate(request);
        await recordNarratorCall(repos, provider, { userId, storyId, kind: 'title', request, result, now: deps.now() });
        const title = cleanTitle(result.text) || fallback;
        await repos.stories.setTitle(storyId, title);
        await deps.flush();
        return { title };
      } catch (error) {
        if (!(error instanceof NarratorError)) throw error;
        deps.log.warn(
          { storyId, provider: provider.id, failure: error.failure, detail: redact(error.detail, [titler.llm.apiKey]) },
          'title generation failed; using the premise',
        );
        return { title: fallback };
      } finally {
        await hold.release();
      }
    },
  };
}
export type StoryService = ReturnType<typeof createStoryService>;
