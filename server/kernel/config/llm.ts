// The narrator's settings (LLM_*): which provider, where, which model, and the window it works in.
import { z } from 'zod';
import { httpUrl, OPENAI_BASE_URL, positiveInt } from './env';
import { loopGuardConfig, loopGuardEnv, type LoopGuardConfig } from './loop-guard';
import { priceEnv, pricesConfig, type Prices } from './prices';

export const LLM_PROVIDERS = ['builtin', 'openai', 'anthropic'] as const;
export type LlmProviderId = (typeof LLM_PROVIDERS)[number];

/** The smallest prompt budget (context minus reply) that holds the rules, a full premise and an action. */
export const MIN_PROMPT_BUDGET_TOKENS = 2048;
const DEFAULT_BASE_URLS: Record<LlmProviderId, string> = {
  builtin: '',
  openai: OPENAI_BASE_URL,
  anthropic: 'https://api.anthropic.com/v1',
};
export const BUILTIN_MODEL = 'taleweaver-demo';

export interface LlmConfig {
  provider: LlmProviderId;
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
  contextTokens: number;
  maxOutputTokens: number;
  temperature: number;
  /** Pause between the offline narrator's words (0 streams at once; tests use 0). */
  builtinWordDelayMs: number;
  /** The share of the prompt's room that story cards may use, always-on and triggered together (LLM_CARD_SHARE). */
  cardShare: number;
  /** Tokens of each turn's prompt that the story bible's facts and the passages recalled from the memory bank may use; 0 turns them off (LLM_RECALL_TOKENS). */
  recallTokens: number;
  /** How many messages from the end of a turn's prompt the story's author's note goes (LLM_AUTHORS_NOTE_DEPTH). */
  authorsNoteDepth: number;
  /** The loop guard (LOOP_*): each reply checked for repeating the last ones, and asked once more. */
  loopGuard: LoopGuardConfig;
  /** What the operator pays per million tokens (LLM_PRICE_*): every dollar figure is priced with them. */
  prices: Prices;
}

export const llmEnv = {
  LLM_PROVIDER: z
    .string()
    .trim()
    .toLowerCase()
    .refine(
      (v) => (LLM_PROVIDERS as readonly string[]).includes(v),
      'LLM_PROVIDER must be builtin, openai or anthropic',
    )
    .transform((v) => v as LlmProviderId)
    .default('builtin'),
  LLM_BASE_URL: httpUrl('LLM_BASE_URL').optional(),
  LLM_API_KEY: z.string().trim().optional(),
  LLM_MODEL: z.string().trim().optional(),
  LLM_TIMEOUT_MS: positiveInt('LLM_TIMEOUT_MS').default(60_000),
  LLM_CONTEXT_TOKENS: positiveInt('LLM_CONTEXT_TOKENS').default(8192),
  LLM_MAX_OUTPUT_TOKENS: positiveInt('LLM_MAX_OUTPUT_TOKENS').default(500),
  LLM_TEMPERATURE: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'LLM_TEMPERATURE must be a number between 0 and 2')
    .transform(Number)
    .refine((n) => n <= 2, 'LLM_TEMPERATURE must be a number between 0 and 2')
    .default(0.8),
  LLM_CARD_SHARE: z
    .string()
    .trim()
    .regex(
      /^(0(\.\d+)?|\.\d+)$/,
      'LLM_CARD_SHARE must be a number from 0 to 0.9 (the share of the prompt story cards may use)',
    )
    .transform(Number)
    .refine(
      (n) => n <= 0.9,
      'LLM_CARD_SHARE must be a number from 0 to 0.9 (the share of the prompt story cards may use)',
    )
    .default(0.25),
  LLM_RECALL_TOKENS: z
    .string()
    .trim()
    .regex(/^\d+$/, 'LLM_RECALL_TOKENS must be a whole number of tokens (0 turns recall off)')
    .transform(Number)
    // 200: the story bible's facts and two or three passages. bench:recall finds every planted fact
    // with it (passages alone too); bench:cache measured the unchanged prefix at 8k at 0.90 with it,
    // 0.88 with 300 and 0.84 with 700, since the volatile tail is never part of the next prompt.
    .default(200),
  LLM_AUTHORS_NOTE_DEPTH: z
    .string()
    .trim()
    .regex(/^\d+$/, 'LLM_AUTHORS_NOTE_DEPTH must be a whole number of messages from 1 to 100')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 100, 'LLM_AUTHORS_NOTE_DEPTH must be a whole number of messages from 1 to 100')
    // 3: into the player's previous action, under the last reply; near enough the end that models heed
    // it (the peers' default depth), far enough that the last action and reply stay as they were.
    .default(3),
  BUILTIN_NARRATOR_WORD_DELAY_MS: z
    .string()
    .trim()
    .regex(/^\d+$/, 'BUILTIN_NARRATOR_WORD_DELAY_MS must be a whole number of milliseconds (0 for instant)')
    .transform(Number)
    .default(35),
  ...loopGuardEnv,
  ...priceEnv,
};

type LlmEnv = z.infer<z.ZodObject<typeof llmEnv>>;

/** Rules that tie several LLM variables together; each problem names the variable to change. */
export function checkLlm(e: LlmEnv): string[] {
  const problems: string[] = [];
  if (e.LLM_PROVIDER !== 'builtin' && !e.LLM_MODEL) {
    problems.push(`LLM_MODEL: LLM_MODEL is required when LLM_PROVIDER is ${e.LLM_PROVIDER}`);
  }
  if (e.LLM_PROVIDER === 'anthropic' && !e.LLM_API_KEY) {
    problems.push('LLM_API_KEY: LLM_API_KEY is required when LLM_PROVIDER is anthropic');
  }
  if (e.LLM_CONTEXT_TOKENS - e.LLM_MAX_OUTPUT_TOKENS < MIN_PROMPT_BUDGET_TOKENS) {
    problems.push(
      `LLM_CONTEXT_TOKENS: LLM_CONTEXT_TOKENS must exceed LLM_MAX_OUTPUT_TOKENS by at least ${MIN_PROMPT_BUDGET_TOKENS} (the prompt needs room for the rules, the premise and the action)`,
    );
  }
  return problems;
}

export function llmConfig(e: LlmEnv): LlmConfig {
  return {
    provider: e.LLM_PROVIDER,
    baseUrl: (e.LLM_BASE_URL ?? DEFAULT_BASE_URLS[e.LLM_PROVIDER]).replace(/\/+$/, ''),
    apiKey: e.LLM_API_KEY || undefined,
    model: e.LLM_PROVIDER === 'builtin' ? BUILTIN_MODEL : (e.LLM_MODEL as string),
    timeoutMs: e.LLM_TIMEOUT_MS,
    contextTokens: e.LLM_CONTEXT_TOKENS,
    maxOutputTokens: e.LLM_MAX_OUTPUT_TOKENS,
    temperature: e.LLM_TEMPERATURE,
    builtinWordDelayMs: e.BUILTIN_NARRATOR_WORD_DELAY_MS,
    cardShare: e.LLM_CARD_SHARE,
    recallTokens: e.LLM_RECALL_TOKENS,
    authorsNoteDepth: e.LLM_AUTHORS_NOTE_DEPTH,
    loopGuard: loopGuardConfig(e),
    prices: pricesConfig(e),
  };
}
