// A prepared turn's run: the narrator's reply written for the plan a use case made (start,
// continue, retry). It builds the prompt, streams the provider's pieces to the listener, lets the
// loop guard review the finished text, saves the reply with its usage and context record, offers the
// memory a fold of the turns as the prompt counted them, and asks for the reply's picture. A failed call
// keeps the player's action for a retry: the lease is given back and what was streamed is billed.
// The hold is released, and the drain told, once the reply or the failure is recorded.
import type { Count } from '@server/ai/llm/context';
import { narratorSystemPrompt } from '@server/ai/llm/prompts';
import { loadTokenCounter } from '@server/ai/llm/tokenizer';
import { NarratorError, type GenerationRequest } from '@server/ai/llm/types';
import type { Log } from '@server/kernel/log';
import { redact } from '@server/kernel/redact';
import type { StoryReply } from '@shared/schemas/story';
import { storyGeneration } from '../generation-settings';
import type { RewriteEvent } from '../loop-guard';
import { narratorFailed } from '../narrator-errors';
import { tidyReply } from '../reply-text';
import { replyUsage, turnCallUsage } from '../reply-usage';
import { buildTurnPrompt } from '../turn-prompt';
import type { NarratorEngine, PreparedTurn, TurnContext, TurnPlan } from './turn-context';

/** The plan as the caller runs it. The reservation is given back once the reply (or the failure) is recorded: its usage row settles it. */
export const preparedTurn = (ctx: TurnContext, plan: TurnPlan): PreparedTurn => ({
  storyId: plan.story.id,
  run: (onDelta, onRewrite, log) => {
    const reply = writeReply(ctx, plan, onDelta, onRewrite, log).finally(() => plan.hold.release());
    return ctx.drain ? ctx.drain.track(reply) : reply;
  },
});

async function writeReply(
  ctx: TurnContext,
  plan: TurnPlan,
  onDelta?: (text: string) => void,
  onRewrite?: (event: RewriteEvent) => void,
  log: Log = ctx.log,
): Promise<StoryReply> {
  const { repos } = ctx;
  const { story, action } = plan;
  let engine = ctx.engine;
  let streamed = '';
  let promptTokens = 0;
  const count = await loadTokenCounter();
  try {
    engine = await ctx.engineFor(story);
    const { provider, llm } = engine;
    const preferences = plan.loaded?.preferences ?? (await ctx.preferences.get(story.userId));
    const system = narratorSystemPrompt(preferences, story.replyLength);
    // The newest unfolded messages before the action, capped: never the whole story. A continue read
    // them with the limits it guessed (ctx.windowFor); read with other limits, they are read again.
    const loaded = plan.loaded;
    const sameLimits =
      loaded !== undefined &&
      engine.windowRead.rows === loaded.limits.rows &&
      engine.windowRead.bytes === loaded.limits.bytes;
    const loadedWindow = sameLimits ? loaded.window : undefined;
    const window =
      loadedWindow ??
      (await repos.stories.recentUnfolded(story.id, story.memoryThroughId, action.id, engine.windowRead));
    const recent = window.messages.map((m) => ({ role: m.role, content: m.content }));
    const { prompt, cards, record } = await buildTurnPrompt({
      repos,
      cardHeads: ctx.cardHeads,
      budget: engine.budget,
      cardShare: llm.cardShare,
      recallTokens: llm.recallTokens,
      authorsNoteDepth: llm.authorsNoteDepth,
      count,
      system,
      story,
      action,
      window,
      vectors: ctx.vectors,
    });
    promptTokens = prompt.promptTokens;
    const request: GenerationRequest = {
      system: prompt.system,
      messages: prompt.messages,
      ...storyGeneration(story, llm, engine.defaults),
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
          if (!streamed && text) ctx.metrics?.firstWord(provider, (performance.now() - plan.began) / 1000);
          streamed += text;
          onDelta(text);
        }),
    );
    const first = tidyReply(result.text);
    if (!first) throw new NarratorError('unavailable', 'the provider finished with an empty reply');
    const usage = turnCallUsage(story, provider, result.usage, promptTokens, count(result.text), ctx.now());
    const guarded = await engine.loopGuard.review({
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
      now: ctx.now(),
      usage: guarded.usageRecorded ? null : usage,
      context: {
        keyed: cards.keyed,
        on: cards.on,
        record: {
          narrator: engine.narrator,
          ...record(outputTokens),
          ...(guarded.record ? { loopGuard: guarded.record } : {}),
          usage: cost,
        },
      },
      loopGuard: guarded.mark,
      replyUsage: cost,
    });
    if (cards.timed) ctx.cardHeads.rememberRecord(reply.id, reply.version, { keyed: cards.keyed, on: cards.on });
    await ctx.flush();
    // The fold is planned from the turns as this prompt counted them; older ones are only known to exist.
    const sent = window.messages
      .slice(prompt.droppedTurns)
      .map((m, i) => ({ id: m.id, role: m.role, tokens: prompt.turnTokens[i] }));
    const newest = [...(action.isInitial ? [] : [action]), reply].map((m) => ({
      id: m.id,
      role: m.role,
      tokens: count(m.content),
    }));
    engine.memory.maybeFold(
      story,
      [...sent, ...newest],
      window.more || prompt.droppedTurns > 0,
      count(system),
      prompt.memoryTokens,
      count,
      log,
    );
    const picture =
      preferences.imageGeneration && ctx.illustrate ? await ctx.illustrate(story.userId, story.id, reply.id) : {};
    const versions = reply.versions > 1 ? { version: reply.version, versions: reply.versions } : {};
    const mark = guarded.mark ? { loopGuard: guarded.mark } : {};
    ctx.metrics?.turnFinished(provider, 'done');
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
    return narratorCallFailed(ctx, engine, plan, error, { streamed, promptTokens, count, log });
  }
}

/**
 * A turn that reached the narrator and failed: counted, its lease given back, and, for a narrator
 * failure, logged and answered as the player reads it, with what a dying stream had already been
 * billed recorded. The kept action (and any usage row) is durable before the player hears of it.
 */
async function narratorCallFailed(
  ctx: TurnContext,
  { provider, llm, narrator }: NarratorEngine,
  { story, reportStoryId }: TurnPlan,
  error: unknown,
  call: { streamed: string; promptTokens: number; count: Count; log: Log },
): Promise<never> {
  const { repos } = ctx;
  ctx.metrics?.turnFinished(provider, error instanceof NarratorError ? error.failure : 'failed');
  await repos.stories.releaseLease(story.id);
  if (!(error instanceof NarratorError)) throw error;
  call.log.warn(
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
  if (call.streamed)
    await repos.usage.record(
      turnCallUsage(story, provider, null, call.promptTokens, call.count(call.streamed), ctx.now()),
    );
  await ctx.flush();
  // The sentence names the narrator when there are several to choose from.
  const named = ctx.narrators.all().length > 1;
  throw narratorFailed(error, { ...narrator, named }, reportStoryId ? story.id : undefined);
}
