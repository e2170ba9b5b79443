// Story turns: start, continue and retry. Each call first does everything that can fail cheaply
// (the player's hourly rate and monthly allowance, with the turn's cost reserved; ownership; the
// one-generation-per-story lease) and commits the player's action,
// then returns a PreparedTurn whose run() calls the provider, streams pieces to an optional
// listener and saves the reply only once it is complete. run() always finishes its work even if
// the listener (a browser) has gone: a disconnect never loses a reply. A finished reply that repeats
// the story is asked for once more before it is saved (loop-guard.ts).
import { computeBudget } from '@server/ai/llm/context';
import { windowLimits } from '@server/ai/llm/fold';
import { narratorSystemPrompt } from '@server/ai/llm/prompts';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import { NarratorError, type GenerationRequest, type NarratorProvider } from '@server/ai/llm/types';
import type { LlmConfig } from '@server/kernel/config';
import type { Repositories } from '@server/db/repositories';
import type { MessageRecord, StoryRecord } from '@server/db/repositories/stories';
import type { UnfoldedRead } from '@server/db/repositories/story-turn';
import { DEFAULT_PREFERENCES, type Preferences } from '@shared/schemas/preferences';
import { MESSAGE_MAX_VERSIONS } from '@shared/schemas/quotas';
import type { StoryReply } from '@shared/schemas/story';
import type { Allowance, Hold } from '../limits/allowance';
import { createTurnAdmission } from './turn-admission';
import { narratorAppError } from './narrator-errors';
import { redact } from '@server/kernel/redact';
import type { PreferencesSource } from '../preferences/preferences';
import { refusedOverQuota, tooManyVersions, type QuotaService } from '../limits/quotas';
import type { Log } from '@server/kernel/log';
import type { Metrics } from '@server/kernel/metrics';
import { notFound } from './errors';
import { createStoryBible, type StoryBible } from './bible';
import { createCardHeads } from './cards/card-heads';
import { createStoryMemory } from './memory/folds';
import { createMemoryBank, type MemoryBank } from './memory/memory-bank';
import type { VectorRecall } from './memory/vector-recall';
import { createLoopGuard, type RewriteEvent } from './loop-guard';
import { generationDefaults, storyGeneration } from './generation-settings';
import { tidyReply } from './reply-text';
import type { Drain } from '@server/kernel/drain';
import { replyUsage, turnCallUsage } from './reply-usage';
import { buildTurnPrompt } from './turn-prompt';

export interface TurnDeps {
  repos: Repositories;
  provider: NarratorProvider;
  llm: LlmConfig;
  /** Every turn passes the player's hourly rate and monthly allowance first (and so does a memory fold). */
  allowance: Allowance;
  /** Read by a story's start and a retry; a continue reads the same row with its lease, in one statement. */
  preferences: PreferencesSource;
  now: () => Date;
  /** Makes committed writes durable (PGlite WAL fsync) before a reply is reported done. */
  flush: () => Promise<void>;
  log: Log;
  /** The account quotas: a start counts a story; no turn begins once the stored text is full. */
  quotas: Pick<QuotaService, 'limits'>;
  /** Counts the replies being written, so a SIGTERM lets them finish (kernel/drain.ts). */
  drain?: Pick<Drain, 'track'>;
  /** The app's metrics: each turn's outcome by provider, and a streamed turn's time to its first word. */
  metrics?: Pick<Metrics, 'turnFinished' | 'firstWord'>;
  /** The memory bank, indexed after every fold (one per app, shared with the story's versions; made here when not given). */
  memoryBank?: MemoryBank;
  /** The memory bank's vectors, when EMBEDDINGS_PROVIDER is set (the same the memory bank embeds with). */
  vectors?: Pick<VectorRecall, 'search' | 'idle'>;
  /** The story bible, which keeps the facts of every fold (one per app, shared with its routes; made here when not given). */
  storyBible?: StoryBible;
  /** Asks for a saved reply's scene picture when the player has pictures on; what it answers rides on the reply. */
  illustrate?: (
    userId: number,
    storyId: number,
    messageId: number,
  ) => Promise<Pick<StoryReply, 'imageMessageId' | 'imageError'>>;
}

export interface PreparedTurn {
  storyId: number;
  /** onRewrite: the loop guard found the finished reply repeating and asks again, then its new text. */
  /** `log`: the request's logger, so the turn's lines carry its request id. */
  run(onDelta?: (text: string) => void, onRewrite?: (event: RewriteEvent) => void, log?: Log): Promise<StoryReply>;
}

/** A lease outlives the provider timeout, so only a dead process leaves one to expire. */
const LEASE_MARGIN_MS = 60_000;

export function createTurnService(deps: TurnDeps) {
  const { repos, provider, llm } = deps;
  const budget = computeBudget(llm.contextTokens, llm.maxOutputTokens);
  /** A turn reads at most this much of its story: the newest unfolded messages the prompt could hold. */
  const windowRead = windowLimits(budget);
  /** The card heads of the stories being played, kept while their cards are unchanged. */
  const cardHeads = createCardHeads(repos);
  /** Every shown message's passages, written after each fold for later turns to recall. */
  const memoryBank = deps.memoryBank ?? createMemoryBank({ repos, log: deps.log });
  const storyBible = deps.storyBible ?? createStoryBible({ repos, now: deps.now, log: deps.log });
  const memory = createStoryMemory({
    repos,
    provider,
    budget,
    contextTokens: llm.contextTokens,
    allowance: deps.allowance,
    apiKey: llm.apiKey,
    now: deps.now,
    flush: deps.flush,
    log: deps.log,
    onFolded: async (storyId, facts, sources) => {
      memoryBank.index(storyId, 'all');
      await storyBible.saveFolded(storyId, facts, sources);
    },
  });
  /** A story's temperature when it has none, and the most the provider accepts. */
  const defaults = generationDefaults(llm, provider.id);
  const leaseUntil = () => new Date(deps.now().getTime() + llm.timeoutMs + LEASE_MARGIN_MS);
  /** The most a turn can cost: a full prompt and a full reply. Reserved before the action is kept; settled by its usage row. */
  const turnTokens = budget.prompt + llm.maxOutputTokens;

  /** Each finished reply measured against the story's last ones, and asked for once more when it loops. */
  const loopGuard = createLoopGuard({
    config: llm.loopGuard,
    repos,
    provider,
    allowance: deps.allowance,
    turnTokens,
    promptBudget: budget.prompt,
    leaseUntil,
    apiKey: llm.apiKey,
    count: loadTokenCounter,
    now: deps.now,
    log: deps.log,
  });

  const { admitTurn, withHold, leaseRefused, leaseStory, underLease } = createTurnAdmission(
    deps,
    turnTokens,
    leaseUntil,
  );

  interface TurnPlan {
    story: StoryRecord;
    action: MessageRecord;
    attempt: number;
    replace: MessageRecord | null;
    /** Set for a story start: a failed first reply still names the story the client can retry. */
    reportStoryId: boolean;
    /** The turn's reservation of the month, given back once its usage is recorded. */
    hold: Hold;
    /** What a continue already read with its lease (one round trip): the window (before the action) and the preferences. */
    loaded?: { window: UnfoldedRead; preferences: Preferences };
    /** When the turn was asked for (performance.now()): its first word is timed from here. */
    began: number;
  }

  async function generate(
    plan: TurnPlan,
    onDelta?: (text: string) => void,
    onRewrite?: (event: RewriteEvent) => void,
    log: Log = deps.log,
  ): Promise<StoryReply> {
    const { story, action } = plan;
    let streamed = '';
    let promptTokens = 0;
    const count = await loadTokenCounter();
    try {
      const preferences = plan.loaded?.preferences ?? (await deps.preferences.get(story.userId));
      const system = narratorSystemPrompt(preferences, story.replyLength);
      // The newest unfolded messages before the action, capped: never the whole story.
      const window =
        plan.loaded?.window ??
        (await repos.stories.recentUnfolded(story.id, story.memoryThroughId, action.id, windowRead));
      const recent = window.messages.map((m) => ({ role: m.role, content: m.content }));
      const { prompt, cards, record } = await buildTurnPrompt({
        repos,
        cardHeads,
        budget,
        cardShare: llm.cardShare,
        recallTokens: llm.recallTokens,
        authorsNoteDepth: llm.authorsNoteDepth,
        count,
        system,
        story,
        action,
        window,
        vectors: deps.vectors,
      });
      promptTokens = prompt.promptTokens;
      const request: GenerationRequest = {
        system: prompt.system,
        messages: prompt.messages,
        ...storyGeneration(story, llm, defaults),
        task: {
          kind: 'turn',
          storyId: story.id,
          turn: action.turn,
          attempt: plan.attempt,
          premise: story.premise,
          action: action.content,
          recent,
          preferences,
        },
      };
      const result = await provider.generate(
        request,
        onDelta &&
          ((text) => {
            if (!streamed && text) deps.metrics?.firstWord(provider.id, (performance.now() - plan.began) / 1000);
            streamed += text;
            onDelta(text);
          }),
      );
      const first = tidyReply(result.text);
      if (!first) throw new NarratorError('unavailable', 'the provider finished with an empty reply');
      const usage = turnCallUsage(story, provider, result.usage, promptTokens, count(result.text), deps.now());
      const guarded = await loopGuard.review({
        story,
        request,
        content: first,
        usage,
        window,
        actionId: action.id,
        onRewrite,
        log,
      });
      const outputTokens = guarded.outputTokens ?? usage.outputTokens;
      const cost = replyUsage(guarded.retry ? [usage, guarded.retry] : [usage], llm.prices);
      const reply = await repos.stories.saveReply({
        storyId: story.id,
        turn: action.turn,
        content: guarded.content,
        alternativeTo: plan.replace?.id ?? null,
        now: deps.now(),
        usage: guarded.usageRecorded ? null : usage,
        context: {
          keyed: cards.keyed,
          on: cards.on,
          record: { ...record(outputTokens), ...(guarded.record ? { loopGuard: guarded.record } : {}), usage: cost },
        },
        loopGuard: guarded.mark,
        replyUsage: cost,
      });
      if (cards.timed) cardHeads.rememberRecord(reply.id, reply.version, { keyed: cards.keyed, on: cards.on });
      await deps.flush();
      // The fold is planned from the turns as this prompt counted them; older ones are only known to exist.
      const sent = window.messages
        .slice(prompt.droppedTurns)
        .map((m, i) => ({ id: m.id, role: m.role, tokens: prompt.turnTokens[i] }));
      const newest = [...(action.isInitial ? [] : [action]), reply].map((m) => ({
        id: m.id,
        role: m.role,
        tokens: count(m.content),
      }));
      memory.maybeFold(
        story,
        [...sent, ...newest],
        window.more || prompt.droppedTurns > 0,
        count(system),
        prompt.memoryTokens,
        count,
        log,
      );
      const picture =
        preferences.imageGeneration && deps.illustrate ? await deps.illustrate(story.userId, story.id, reply.id) : {};
      const versions = reply.versions > 1 ? { version: reply.version, versions: reply.versions } : {};
      const mark = guarded.mark ? { loopGuard: guarded.mark } : {};
      deps.metrics?.turnFinished(provider.id, 'done');
      return {
        storyId: story.id,
        messageId: reply.id,
        message: reply.content,
        ...versions,
        ...mark,
        usage: cost,
        ...picture,
      };
    } catch (error) {
      deps.metrics?.turnFinished(provider.id, error instanceof NarratorError ? error.failure : 'failed');
      await repos.stories.releaseLease(story.id);
      if (!(error instanceof NarratorError)) throw error;
      log.warn(
        {
          storyId: story.id,
          provider: provider.id,
          model: provider.model,
          failure: error.failure,
          detail: redact(error.detail, [llm.apiKey]),
        },
        'narrator call failed; the action is kept for a retry',
      );
      // A stream that died after some text was still billed by the provider.
      if (streamed)
        await repos.usage.record(turnCallUsage(story, provider, null, promptTokens, count(streamed), deps.now()));
      // The kept action (and any usage row) is durable before the player hears of the failure.
      await deps.flush();
      throw narratorAppError(error, plan.reportStoryId ? story.id : undefined);
    }
  }

  // The reservation is given back once the reply (or the failure) is recorded: its usage row settles it.
  const prepared = (plan: TurnPlan): PreparedTurn => ({
    storyId: plan.story.id,
    run: (onDelta, onRewrite, log) => {
      const reply = generate(plan, onDelta, onRewrite, log).finally(() => plan.hold.release());
      return deps.drain ? deps.drain.track(reply) : reply;
    },
  });

  return {
    async startStory(userId: number, premise: string): Promise<PreparedTurn> {
      const began = performance.now();
      const hold = await admitTurn(userId);
      return withHold(hold, async () => {
        const now = deps.now();
        const { maxStories, maxStoredBytes } = deps.quotas.limits;
        const { story, premiseMessage } = await refusedOverQuota(deps.quotas.limits, () =>
          repos.stories.create({
            userId,
            premise,
            now,
            leaseUntil: leaseUntil(),
            quotas: { maxStories, maxStoredBytes },
          }),
        );
        return prepared({
          story,
          action: premiseMessage,
          attempt: 0,
          replace: null,
          reportStoryId: true,
          hold,
          began,
        });
      });
    },

    async continueStory(userId: number, storyId: number, text: string): Promise<PreparedTurn> {
      const began = performance.now();
      const hold = await admitTurn(userId);
      return withHold(hold, async () => {
        // The lease, the action, the window and the preferences in one statement: the fewer round
        // trips (and, on PGlite, statements queued on its one session) before the provider call, the sooner
        // the first words.
        const turn = await repos.stories.leaseAndAppend({
          storyId,
          userId,
          content: text,
          now: deps.now(),
          until: leaseUntil(),
          window: windowRead,
          maxStoredBytes: deps.quotas.limits.maxStoredBytes,
        });
        if (!turn) return leaseRefused(userId, storyId, Buffer.byteLength(text));
        const { story, action } = turn;
        const preferences = turn.preferences ?? DEFAULT_PREFERENCES;
        return prepared({
          story,
          action,
          attempt: 0,
          replace: null,
          reportStoryId: false,
          loaded: { window: turn.window, preferences },
          hold,
          began,
        });
      });
    },

    /** Answers the last action again: adds a new version of its reply (the earlier ones stay as alternatives), or gives it the reply that failed. */
    async retry(userId: number, storyId: number): Promise<PreparedTurn> {
      const began = performance.now();
      const hold = await admitTurn(userId);
      return withHold(hold, async () => {
        const story = await leaseStory(userId, storyId);
        return underLease(story.id, async () => {
          const last = await repos.stories.lastMessage(story.id);
          const action = last?.role === 'user' ? last : await repos.stories.lastAction(story.id);
          if (!last || !action) throw notFound();
          if (last.role === 'assistant' && last.versions >= MESSAGE_MAX_VERSIONS) throw tooManyVersions();
          const attempts = await repos.stories.startAttempt(action.id);
          return prepared({
            story,
            action,
            attempt: attempts - 1,
            replace: last.role === 'assistant' ? last : null,
            reportStoryId: false,
            hold,
            began,
          });
        });
      });
    },

    /**
     * Waits for background memory folds and indexing (tests, benchmarks, shutdown): the folds first,
     * since each schedules the indexing (and embedding) of what it folded; then the ledger rows of
     * the turns' query embeddings.
     */
    idle: async () => {
      await memory.idle();
      await memoryBank.idle();
      await deps.vectors?.idle();
    },
  };
}
export type TurnService = ReturnType<typeof createTurnService>;
