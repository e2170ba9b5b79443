// The loop guard's settings (LOOP_*): whether the narrator service checks each reply for repeating
// itself and asks once more, the detector's thresholds (defaults measured by bench:loop and
// justified in ai/llm/loop-detector.ts), and the backend's own anti-repetition samplers the second
// call asks for.
import { z } from 'zod';

export interface LoopThresholds {
  /** A reply whose share of 4-grams already used in the last replies reaches this is a retelling (LOOP_NGRAM_SHARE). */
  ngramShare: number;
  /**
   * An opening repeats when this many first words equal another reply's, or the whole first sentence
   * when it is shorter (five words at least) (LOOP_OPENING_WORDS).
   */
  openingWords: number;
  /** A span said this many times is a cycle (LOOP_CYCLE_REPEATS). */
  cycleRepeats: number;
  /** ...when its repeats cover at least this many words ("no, no, no" does not) (LOOP_CYCLE_MIN_WORDS). */
  cycleMinWords: number;
}

export interface LoopGuardConfig {
  /** LOOP_GUARD: check every narrator reply, and ask once more when it loops. */
  on: boolean;
  thresholds: LoopThresholds;
  /** frequency_penalty of the second call on an OpenAI-compatible server; 0 sends none (LOOP_FREQUENCY_PENALTY). */
  frequencyPenalty: number;
  /** DRY sampler parameters on the second call, for llama.cpp and koboldcpp; OpenAI refuses them (LOOP_DRY). */
  dry: boolean;
}

const onOff = (name: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => ['on', 'off', 'true', 'false', '1', '0'].includes(v), `${name} must be on or off`)
    .transform((v) => ['on', 'true', '1'].includes(v));

const wholeFrom = (name: string, min: number, what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be a whole number of ${what}, ${min} or more`)
    .transform(Number)
    .refine((n) => n >= min, `${name} must be a whole number of ${what}, ${min} or more`);

const numberIn = (name: string, min: number, max: number, what: string) =>
  z
    .string()
    .trim()
    .regex(/^(\d+(\.\d+)?|\.\d+)$/, `${name} must be ${what} from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be ${what} from ${min} to ${max}`);

export const loopGuardEnv = {
  LOOP_GUARD: onOff('LOOP_GUARD').default(true),
  LOOP_NGRAM_SHARE: numberIn('LOOP_NGRAM_SHARE', 0.1, 1, 'a share').default(0.7),
  LOOP_OPENING_WORDS: wholeFrom('LOOP_OPENING_WORDS', 5, 'words').default(12),
  LOOP_CYCLE_REPEATS: wholeFrom('LOOP_CYCLE_REPEATS', 2, 'repeats').default(3),
  LOOP_CYCLE_MIN_WORDS: wholeFrom('LOOP_CYCLE_MIN_WORDS', 4, 'words').default(12),
  LOOP_FREQUENCY_PENALTY: numberIn('LOOP_FREQUENCY_PENALTY', 0, 2, 'a number').default(0.5),
  LOOP_DRY: onOff('LOOP_DRY').default(false),
};

type LoopGuardEnv = z.infer<z.ZodObject<typeof loopGuardEnv>>;

export function loopGuardConfig(e: LoopGuardEnv): LoopGuardConfig {
  return {
    on: e.LOOP_GUARD,
    thresholds: {
      ngramShare: e.LOOP_NGRAM_SHARE,
      openingWords: e.LOOP_OPENING_WORDS,
      cycleRepeats: e.LOOP_CYCLE_REPEATS,
      cycleMinWords: e.LOOP_CYCLE_MIN_WORDS,
    },
    frequencyPenalty: e.LOOP_FREQUENCY_PENALTY,
    dry: e.LOOP_DRY,
  };
}
