// Story turns: start, continue and retry. Each call first does everything that can fail cheaply
// (ownership, allowance, the one-generation-per-story lease) and commits the player's action,
// then returns a PreparedTurn whose run() calls the provider, streams pieces to an optional
// listener and saves the reply only once it is complete. run() always finishes its work even if
// the listener (a browser) has gone: a disconnect never loses a reply.
import { computeBudget, assembleTurnPrompt } from '@server/ai/llm/context';
import { narratorSystemPrompt } from '@server/ai/llm/prompts';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import { NarratorError, type NarratorProvider } from '@server/ai/llm/types';
import type { LlmConfig } from '@server/config';
import type { Repositories } from '@server/db/repositories';
import type { MessageRecord, StoryRecord } from '@server/db/repositories/stories';
import { AppError } from '@server/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import { DEFAULT_PREFERENCES, type Preferences } from '@shared/schemas/preferences';
import { MESSAGE_MAX_VERSIONS } from '@shared/schemas/quotas';
import { STORY_MESSAGES, type StoryReply } from '@shared/schemas/story';
import { narratorAppError, scrubbed } from './narrator-errors';
import type { PreferencesSource } from './preferences';
import { quotaError, refusedOverQuota, tooManyVersions, type QuotaService } from './quotas';
import { createStoryMemory, type Log } from './story-memory';

export interface NarrationDeps {
  repos: Repositories;
  provider: NarratorProvider;
  llm: LlmConfig;
  monthlyTokenLimit: number | null;
  /** Read by a story's start and a retry; a continue reads the same row with its lease, in one statement. */
  preferences: PreferencesSource;
  now: () => Date;
  /** Makes committed writes durable (PGlite WAL fsync) before a reply is reported done. */
  flush: () => Promise<void>;
  log: Log;
  /** The account quotas: a start counts a story; no turn begins once the stored text is full. */
  quotas: Pick<QuotaService, 'limits'>;
  /** Asks for a saved reply's scene picture when the player has pictures on; what it answers rides on the reply. */
  illustrate?: (userId: number, storyId: number, messageId: number) => Promise<Pick<StoryReply, 'imageMessageId' | 'imageError'>>;
}

export interface PreparedTurn {
  storyId: number;
  run(onDelta?: (text: string) => void): Promise<StoryReply>;
}

/** What real models are asked on turn 0, where the premise is the action. */
export const OPENING_INSTRUCTION = 'Begin the story: write its opening scene for the player.';
/** A lease outlives the provider timeout, so only a dead process leaves one to expire. */
const LEASE_MARGIN_MS = 60_000;

export const notFound = () => new AppError(404, ERROR_CODES.notFound, STORY_MESSAGES.storyNotFound);
/** A change to a story while its reply is being written. */
export const storyBusy = () => new AppError(409, ERROR_CODES.conflict, STORY_MESSAGES.busy);

/** A reply cut by the length cap ends at its last full sentence rather than mid-word. */
export function tidyReply(text: string): string {
  const trimmed = text.trim();
  if (/[.!?"”'’)*]$/.test(trimmed)) return trimmed;
  const lastStop = Math.max(trimmed.lastIndexOf('. '), trimmed.lastIndexOf('! '), trimmed.lastIndexOf('? '), trimmed.lastIndexOf('.\n'));
  return lastStop > trimmed.length / 2 ? trimmed.slice(0, lastStop + 1) : trimmed;
}

export function createNarrationService(deps: NarrationDeps) {
  const { repos, provider, llm } = deps;
  const budget = computeBudget(llm.contextTokens, llm.maxOutputTokens);
  const memory = createStoryMemory({ repos, provider, budget, apiKey: llm.apiKey, now: deps.now, flush: deps.flush, log: deps.log });
  const leaseUntil = () => new Date(deps.now().getTime() + llm.timeoutMs + LEASE_MARGIN_MS);

  async function assertAllowance(userId: number): Promise<void> {
    if (deps.monthlyTokenLimit === null) return;
    const used = await repos.usage.monthTotalForUser(userId, deps.now());
    if (used >= deps.monthlyTokenLimit) throw new AppError(429, ERROR_CODES.allowanceUsed, STORY_MESSAGES.allowanceUsed);
  }

  /**
   * Why a lease was not taken: 404 when the story is not the owner's, 413 when their stored text
   * and `actionBytes` would pass the storage quota, else 409 (a reply is being written).
   */
  async function leaseRefused(userId: number, storyId: number, actionBytes = 0): Promise<never> {
    const usage = await repos.quotas.ownedStoryUsage(storyId, userId);
    if (!usage) throw notFound();
    if (usage.storedBytes + actionBytes > deps.quotas.limits.maxStoredBytes) throw quotaError('storage', deps.quotas.limits);
    throw storyBusy();
  }

  /** The owner's story with its lease taken: 404 when it is not theirs, 413 when their stored text is full, 409 while a reply is being written. */
  async function leaseStory(userId: number, storyId: number): Promise<StoryRecord> {
    return (await repos.stories.leaseOwned(storyId, userId, deps.now(), leaseUntil(), deps.quotas.limits.maxStoredBytes)) ?? leaseRefused(userId, storyId);
  }

  /** Runs `work` holding the lease; a failure before the turn is prepared gives the lease back. */
  async function underLease<T>(storyId: number, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      await repos.stories.releaseLease(storyId);
      throw error;
    }
  }

  interface TurnPlan {
    story: StoryRecord;
    action: MessageRecord;
    attempt: number;
    replace: MessageRecord | null;
    /** Set for a story start: a failed first reply still names the story the client can retry. */
    reportStoryId: boolean;
    /** What a continue already read with its lease (one round trip): the window and the preferences. */
    loaded?: { window: MessageRecord[]; preferences: Preferences };
  }

  async function generate(plan: TurnPlan, onDelta?: (text: string) => void): Promise<StoryReply> {
    const { story, action } = plan;
    let streamed = '';
    let promptTokens = 0;
    const count = await loadTokenCounter();
    try {
      const preferences = plan.loaded?.preferences ?? (await deps.preferences.get(story.userId));
      const system = narratorSystemPrompt(preferences);
      const window = (plan.loaded?.window ?? (await repos.stories.messagesAfter(story.id, story.memoryThroughId))).filter((m) => !m.isInitial);
      const recent = window.filter((m) => m.id < action.id).map((m) => ({ role: m.role, content: m.content }));
      const prompt = assembleTurnPrompt(
        { system, premise: story.premise, notes: story.notes, memory: story.memory, recent, action: action.isInitial ? OPENING_INSTRUCTION : action.content },
        budget,
        count,
      );
      promptTokens = prompt.promptTokens;
      const result = await provider.generate(
        {
          system: prompt.system,
          messages: prompt.messages,
          maxOutputTokens: llm.maxOutputTokens,
          temperature: llm.temperature,
          task: { kind: 'turn', storyId: story.id, turn: action.turn, attempt: plan.attempt, premise: story.premise, action: action.content, recent },
        },
        onDelta &&
          ((text) => {
            streamed += text;
            onDelta(text);
          }),
      );
      const content = tidyReply(result.text);
      if (!content) throw new NarratorError('unavailable', 'the provider finished with an empty reply');
      const now = deps.now();
      const reply = await repos.stories.saveReply({
        storyId: story.id,
        turn: action.turn,
        content,
        alternativeTo: plan.replace?.id ?? null,
        now,
        usage: {
          userId: story.userId,
          storyId: story.id,
          kind: 'turn',
          provider: provider.id,
          model: provider.model,
          inputTokens: result.usage.inputTokens ?? promptTokens,
          outputTokens: result.usage.outputTokens ?? count(result.text),
          createdAt: now,
        },
      });
      await deps.flush();
      const nextWindow = [...window.filter((m) => m.id <= action.id && m.id !== plan.replace?.id), reply];
      memory.maybeFold(story, nextWindow, count(system), count);
      const picture = preferences.imageGeneration && deps.illustrate ? await deps.illustrate(story.userId, story.id, reply.id) : {};
      const versions = reply.versions > 1 ? { version: reply.version, versions: reply.versions } : {};
      return { storyId: story.id, messageId: reply.id, message: reply.content, ...versions, ...picture };
    } catch (error) {
      await repos.stories.releaseLease(story.id);
      if (!(error instanceof NarratorError)) throw error;
      deps.log.warn(
        { storyId: story.id, provider: provider.id, model: provider.model, failure: error.failure, detail: scrubbed(error.detail, llm.apiKey) },
        'narrator call failed; the action is kept for a retry',
      );
      // A stream that died after some text was still billed by the provider.
      if (streamed) {
        await repos.usage.record({
          userId: story.userId,
          storyId: story.id,
          kind: 'turn',
          provider: provider.id,
          model: provider.model,
          inputTokens: promptTokens,
          outputTokens: count(streamed),
          createdAt: deps.now(),
        });
      }
      // The kept action (and any usage row) is durable before the player hears of the failure.
      await deps.flush();
      throw narratorAppError(error, plan.reportStoryId ? story.id : undefined);
    }
  }

  const prepared = (plan: TurnPlan): PreparedTurn => ({ storyId: plan.story.id, run: (onDelta) => generate(plan, onDelta) });

  return {
    async startStory(userId: number, premise: string): Promise<PreparedTurn> {
      await assertAllowance(userId);
      const now = deps.now();
      const { maxStories, maxStoredBytes } = deps.quotas.limits;
      const { story, premiseMessage } = await refusedOverQuota(deps.quotas.limits, () =>
        repos.stories.create({ userId, premise, now, leaseUntil: leaseUntil(), quotas: { maxStories, maxStoredBytes } }),
      );
      return prepared({ story, action: premiseMessage, attempt: 0, replace: null, reportStoryId: true });
    },

    async continueStory(userId: number, storyId: number, text: string): Promise<PreparedTurn> {
      await assertAllowance(userId);
      // The lease, the action, the window and the preferences in one statement: the fewer round
      // trips (and, on PGlite, statements queued on its one session) before the provider call, the sooner
      // the first words.
      const turn = await repos.stories.leaseAndAppend({ storyId, userId, content: text, now: deps.now(), until: leaseUntil(), maxStoredBytes: deps.quotas.limits.maxStoredBytes });
      if (!turn) return leaseRefused(userId, storyId, Buffer.byteLength(text));
      const { story, action } = turn;
      const preferences = turn.preferences ?? DEFAULT_PREFERENCES;
      return prepared({ story, action, attempt: 0, replace: null, reportStoryId: false, loaded: { window: [...turn.window, action], preferences } });
    },

    /** Answers the last action again: adds a new version of its reply (the earlier ones stay as alternatives), or gives it the reply that failed. */
    async retry(userId: number, storyId: number): Promise<PreparedTurn> {
      await assertAllowance(userId);
      const story = await leaseStory(userId, storyId);
      return underLease(story.id, async () => {
        const last = await repos.stories.lastMessage(story.id);
        const action = last?.role === 'user' ? last : await repos.stories.lastAction(story.id);
        if (!last || !action) throw notFound();
        if (last.role === 'assistant' && last.versions >= MESSAGE_MAX_VERSIONS) throw tooManyVersions();
        const attempts = await repos.stories.startAttempt(action.id);
        return prepared({ story, action, attempt: attempts - 1, replace: last.role === 'assistant' ? last : null, reportStoryId: false });
      });
    },

    /** Waits for background memory folds (tests, benchmarks, shutdown). */
    idle: () => memory.idle(),
  };
}
export type NarrationService = ReturnType<typeof createNarrationService>;
