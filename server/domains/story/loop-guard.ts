// The loop guard, for every narrator backend: a finished reply is measured against the
// story's last replies (ai/llm/loop-detector.ts), and one that repeats them, or itself, is asked for
// once more, with an instruction naming what to avoid and the backend's own anti-repetition
// samplers. Never more than one extra call a turn, admitted against the player's hour and month
// like every paid call (ledger kind 'retry-loop'), under the story's reply lease, extended first. If
// the second answer loops too, the less repetitive of the two is kept and marked.
// The guard runs after the last streamed word, so the first word comes as soon as without it.
import { detectLoop, LOOP_HISTORY_REPLIES, loopSeverity, type LoopVerdict } from '@server/ai/llm/loop-detector';
import { countPrompt, type Count } from '@server/ai/llm/context';
import { NarratorError, type GenerationRequest, type NarratorProvider } from '@server/ai/llm/types';
import type { LoopGuardConfig } from '@server/kernel/config';
import type { Log } from '@server/kernel/log';
import { redact } from '@server/kernel/redact';
import type { Repositories } from '@server/db/repositories';
import type { StoryRecord } from '@server/db/repositories/stories';
import type { UnfoldedRead } from '@server/db/repositories/story-turn';
import type { UsageEvent } from '@server/db/repositories/usage';
import type { LoopGuardMark } from '@shared/schemas/story';
import type { NarratorContext } from '@shared/schemas/story-cards';
import type { Allowance } from '../limits/allowance';
import { tidyReply } from './reply-text';

/** What the player's page hears while the guard works: it asks again, then the reply's new text. */
export type RewriteEvent = { kind: 'rewriting' } | { kind: 'replace'; text: string };

/**
 * The offline narrator writes from the attempt number, not the prompt, and has four replies a turn
 * (attempt modulo 4): the guard's second call asks for the one two past the first answer's, so it
 * differs from it and from the next 'Try again'.
 */
const GUARD_ATTEMPT_OFFSET = 2;

export interface GuardedReply {
  content: string;
  mark: LoopGuardMark | null;
  /** For the context record; absent when the guard let the reply pass. */
  record?: NonNullable<NarratorContext['loopGuard']>;
  /** The output tokens of the kept reply, when it is the second answer. */
  outputTokens?: number;
  /** The second call's usage row, when one was made: part of the reply's cost whichever answer is kept. */
  retry?: UsageEvent;
  /** True when the guard wrote the turn's usage rows itself (the reply is then saved without one). */
  usageRecorded: boolean;
}

export interface ReviewInput {
  story: StoryRecord;
  /** What the first answer was asked with. */
  request: GenerationRequest;
  /** The first answer, tidied, and its usage row (kind 'turn'). */
  content: string;
  usage: UsageEvent;
  /** The turn's verbatim window and its action's id: the replies before it are measured against. */
  window: UnfoldedRead;
  actionId: number;
  onRewrite?: (event: RewriteEvent) => void;
  /** The turn's request's logger, so these lines carry its request id (else the service's). */
  log?: Log;
}

/** The line the second call is asked with, before the action in the last user message. */
export function rewriteInstruction(verdict: LoopVerdict): string {
  return `[Your first answer to this action repeated the story. ${verdict.reasons.join(' ')} Write the reply again, moving the story forward.]`;
}

export function createLoopGuard(deps: {
  config: LoopGuardConfig;
  repos: Pick<Repositories, 'stories' | 'usage'>;
  provider: NarratorProvider;
  allowance: Pick<Allowance, 'admitOrNull'>;
  /** The most a narrator call can cost (what a turn reserves), reserved by the second call too. */
  turnTokens: number;
  /** Tokens a turn's prompt may use: the second call's, instruction included, too. */
  promptBudget: number;
  leaseUntil: () => Date;
  apiKey: string | undefined;
  count: () => Promise<Count>;
  now: () => Date;
  log: Log;
}) {
  const { config, repos, provider } = deps;

  /**
   * The second call: the same prompt, the instruction before the action, the backend's samplers;
   * null when it cannot fit the prompt's budget. The instruction's room comes from the oldest verbatim
   * turns, a reply and an action at a time (the first message holds the pinned head and stays, and
   * the roles keep alternating), so the prompt stays within what the first one could use.
   */
  function retryRequest(request: GenerationRequest, verdict: LoopVerdict, count: Count): GenerationRequest | null {
    const messages = [...request.messages];
    const last = messages.at(-1);
    if (last?.role !== 'user') return null;
    messages[messages.length - 1] = { role: 'user', content: `${rewriteInstruction(verdict)}\n\n${last.content}` };
    while (countPrompt(request.system, messages, count) > deps.promptBudget) {
      if (messages.length <= 3) return null;
      messages.splice(1, 2);
    }
    const task =
      request.task.kind === 'turn'
        ? { ...request.task, attempt: request.task.attempt + GUARD_ATTEMPT_OFFSET }
        : request.task;
    return {
      ...request,
      messages,
      task,
      repetition: { frequencyPenalty: config.frequencyPenalty, dry: config.dry },
    };
  }

  /** The second answer, or null when it could not be had (the limits, the lease, the provider). */
  async function askAgain(
    input: ReviewInput,
    verdict: LoopVerdict,
  ): Promise<{ text: string; tokens: number; usage: UsageEvent } | null> {
    const { story } = input;
    const log = input.log ?? deps.log;
    const count = await deps.count();
    const request = retryRequest(input.request, verdict, count);
    if (!request) {
      log.info({ storyId: story.id }, 'loop guard: no room for the instruction in the prompt; the reply is kept');
      return null;
    }
    const hold = await deps.allowance.admitOrNull(story.userId, 'retry-loop', deps.turnTokens);
    if (!hold) {
      log.info({ storyId: story.id }, 'loop guard: the hour or the month refused a second call; the reply is kept');
      return null;
    }
    try {
      if (!(await repos.stories.extendLease(story.id, deps.leaseUntil()))) return null;
      const result = await provider.generate(request);
      const tokens = result.usage.outputTokens ?? count(result.text);
      const usage: UsageEvent = {
        ...input.usage,
        kind: 'retry-loop',
        inputTokens: result.usage.inputTokens ?? countPrompt(request.system, request.messages, count),
        cachedInputTokens: result.usage.cachedInputTokens,
        outputTokens: tokens,
        createdAt: deps.now(),
      };
      await repos.usage.record(usage);
      return { text: tidyReply(result.text), tokens, usage };
    } catch (error) {
      if (!(error instanceof NarratorError)) throw error;
      const detail = redact(error.detail, [deps.apiKey]);
      log.warn(
        { storyId: story.id, provider: provider.id, failure: error.failure, detail },
        'loop guard: the second call failed; the first reply is kept',
      );
      return null;
    } finally {
      await hold.release();
    }
  }

  /** The replies a reply is measured against, newest first: from the window, or read when it holds fewer. */
  async function history(story: StoryRecord, beforeId: number, window: UnfoldedRead): Promise<string[]> {
    const replies: string[] = [];
    for (let i = window.messages.length - 1; i >= 0 && replies.length < LOOP_HISTORY_REPLIES; i -= 1)
      if (window.messages[i].role === 'assistant') replies.push(window.messages[i].content);
    const older = window.more || story.memoryThroughId > 0;
    if (replies.length === LOOP_HISTORY_REPLIES || !older) return replies;
    return repos.stories.recentReplies(story.id, beforeId, LOOP_HISTORY_REPLIES);
  }

  return {
    /**
     * The reply to keep: the first answer when the guard is off or it does not loop, else what asking
     * once more gave.
     */
    async review(input: ReviewInput): Promise<GuardedReply> {
      const passed: GuardedReply = { content: input.content, mark: null, usageRecorded: false };
      if (!config.on) return passed;
      const earlier = await history(input.story, input.actionId, input.window);
      const verdict = detectLoop(input.content, earlier, config.thresholds);
      if (!verdict.looping) return passed;
      input.onRewrite?.({ kind: 'rewriting' });
      // The first answer was paid for whatever happens next.
      await repos.usage.record(input.usage);
      const second = await askAgain(input, verdict);
      const kept = { reasons: verdict.reasons, retried: second !== null };
      const retry = second ? { retry: second.usage } : {};
      if (!second || !second.text)
        return {
          content: input.content,
          mark: 'marked',
          record: { outcome: 'marked', ...kept },
          usageRecorded: true,
          ...retry,
        };
      const again = detectLoop(second.text, earlier, config.thresholds);
      const mark: LoopGuardMark = again.looping ? 'marked' : 'replaced';
      if (again.looping && loopSeverity(again) >= loopSeverity(verdict))
        return { content: input.content, mark, record: { outcome: mark, ...kept }, usageRecorded: true, ...retry };
      input.onRewrite?.({ kind: 'replace', text: second.text });
      return {
        content: second.text,
        mark,
        record: { outcome: mark, ...kept },
        outputTokens: second.tokens,
        usageRecorded: true,
        ...retry,
      };
    },
  };
}
export type LoopGuard = ReturnType<typeof createLoopGuard>;
