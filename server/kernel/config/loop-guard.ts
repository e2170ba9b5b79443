// The loop guard's settings (LOOP_*): whether the narrator service checks each reply for repeating
// itself and asks once more, the detector's thresholds (defaults measured by bench:loop and
// justified in ai/llm/loop-detector.ts), and the backend's own anti-repetition samplers the second
// call asks for.
import { z } from 'zod';
import { setting, type ParsedSettings } from './setting';

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

export const loopGuardSettings = {
  LOOP_GUARD: setting({
    group: 'Narrator',
    doc: 'The loop guard: a reply repeating the last ones, or itself, is asked for again; `off` sends it as written.',
    default: 'on',
    schema: onOff('LOOP_GUARD'),
  }),
  LOOP_NGRAM_SHARE: setting({
    group: 'Narrator',
    doc: 'A reply whose word 4-grams the last replies already used at this share or more is a retelling (0.1-1).',
    default: '0.7',
    schema: numberIn('LOOP_NGRAM_SHARE', 0.1, 1, 'a share'),
  }),
  LOOP_OPENING_WORDS: setting({
    group: 'Narrator',
    doc: 'A reply opens like an earlier one when this many first words are the same (5 or more).',
    default: '12',
    schema: wholeFrom('LOOP_OPENING_WORDS', 5, 'words'),
  }),
  LOOP_CYCLE_REPEATS: setting({
    group: 'Narrator',
    doc: 'A span said this many times in one reply is a cycle…',
    default: '3',
    schema: wholeFrom('LOOP_CYCLE_REPEATS', 2, 'repeats'),
  }),
  LOOP_CYCLE_MIN_WORDS: setting({
    group: 'Narrator',
    doc: '…when its repeats cover at least this many words ("no, no, no" is no loop).',
    default: '12',
    schema: wholeFrom('LOOP_CYCLE_MIN_WORDS', 4, 'words'),
  }),
  LOOP_FREQUENCY_PENALTY: setting({
    group: 'Narrator',
    doc: '`frequency_penalty` of the second call on an OpenAI-compatible server (0-2; `0` sends none).',
    default: '0.5',
    schema: numberIn('LOOP_FREQUENCY_PENALTY', 0, 2, 'a number'),
  }),
  LOOP_DRY: setting({
    group: 'Narrator',
    doc: "`on` adds the DRY sampler's parameters to the second call, for llama.cpp's server and koboldcpp.",
    default: 'off',
    schema: onOff('LOOP_DRY'),
  }),
};

type LoopGuardEnv = ParsedSettings<typeof loopGuardSettings>;

/** The loop guard's configuration (`config.llm.loopGuard`), read from its variables. */
export function loopGuardConfig(e: LoopGuardEnv) {
  return {
    /** LOOP_GUARD: check every narrator reply, and ask once more when it loops. */
    on: e.LOOP_GUARD,
    thresholds: {
      /** A reply whose share of 4-grams already used in the last replies reaches this is a retelling (LOOP_NGRAM_SHARE). */
      ngramShare: e.LOOP_NGRAM_SHARE,
      /**
       * An opening repeats when this many first words equal another reply's, or the whole first sentence
       * when it is shorter (five words at least) (LOOP_OPENING_WORDS).
       */
      openingWords: e.LOOP_OPENING_WORDS,
      /** A span said this many times is a cycle (LOOP_CYCLE_REPEATS). */
      cycleRepeats: e.LOOP_CYCLE_REPEATS,
      /** ...when its repeats cover at least this many words ("no, no, no" does not) (LOOP_CYCLE_MIN_WORDS). */
      cycleMinWords: e.LOOP_CYCLE_MIN_WORDS,
    },
    /** frequency_penalty of the second call on an OpenAI-compatible server; 0 sends none (LOOP_FREQUENCY_PENALTY). */
    frequencyPenalty: e.LOOP_FREQUENCY_PENALTY,
    /** DRY sampler parameters on the second call, for llama.cpp and koboldcpp; OpenAI refuses them (LOOP_DRY). */
    dry: e.LOOP_DRY,
  };
}

export type LoopGuardConfig = ReturnType<typeof loopGuardConfig>;
export type LoopThresholds = LoopGuardConfig['thresholds'];
