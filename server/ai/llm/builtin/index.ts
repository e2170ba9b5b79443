// The builtin provider: the offline demo narrator behind the same interface as the real ones.
// It streams word by word at BUILTIN_NARRATOR_WORD_DELAY_MS (0 = instant, for tests) and reports
// no usage, so the ledger counts its words with the tokenizer like any provider that reports none.
import { setTimeout as sleep } from 'node:timers/promises';
import { BUILTIN_MODEL, type LlmConfig } from '@server/kernel/config';
import { loadTokenCounter } from '../tokenizer';
import type { NarratorProvider } from '../types';
import { fallbackTitle } from '../titles';
import { factsSection } from '../summary-answer';
import { extractFacts } from './facts';
import { summarizeExtractive } from './memory';
import { loadEnglish } from './action';
import { composeReply } from './narrator';
import { describeLooks } from './visuals';

export function createBuiltinNarrator(config: Pick<LlmConfig, 'builtinWordDelayMs'>): NarratorProvider {
  return {
    id: 'builtin',
    model: BUILTIN_MODEL,
    async generate(request, onDelta) {
      const { task } = request;
      let text: string;
      if (task.kind === 'turn') text = composeReply(task, await loadEnglish());
      else if (task.kind === 'title') text = fallbackTitle(task.premise);
      else if (task.kind === 'style') text = JSON.stringify(describeLooks(task));
      else if (task.kind === 'compact')
        text = summarizeExtractive(
          task.parts.join(' '),
          [],
          task.maxTokens,
          await loadTokenCounter(),
          await loadEnglish(),
        );
      // A fold's chunk tells only its own turns (the memory before it stays as it is).
      else
        text = `${summarizeExtractive('', task.turns, task.maxTokens, await loadTokenCounter(), await loadEnglish())}\n\n${factsSection(extractFacts(task.turns))}`;
      if (onDelta) {
        const pieces = text.match(/\S+\s*/g) ?? [];
        for (const [i, piece] of pieces.entries()) {
          if (i > 0 && config.builtinWordDelayMs > 0) await sleep(config.builtinWordDelayMs);
          onDelta(piece);
        }
      }
      return { text, usage: { inputTokens: undefined, outputTokens: undefined } };
    },
  };
}
