// The narrator's settings (LLM_*): which provider, where, which model, and the window it works in;
// and NARRATORS_FILE, a catalogue of several (narrators.ts), which then leaves LLM_* the shared parts.
import { z } from 'zod';
import { httpUrl, OPENAI_BASE_URL, positiveInt, providerId } from './env';
import { loopGuardConfig, loopGuardSettings } from './loop-guard';
import { priceSettings, pricesConfig } from './prices';
import { setting, type ParsedSettings } from './setting';

export const LLM_PROVIDERS = ['builtin', 'openai', 'anthropic'] as const;
export type LlmProviderId = (typeof LLM_PROVIDERS)[number];

/** The smallest prompt budget (context minus reply) that holds the rules, a full premise and an action. */
export const MIN_PROMPT_BUDGET_TOKENS = 2048;
/** Each provider's API root when no base URL is given. */
export const DEFAULT_BASE_URLS: Record<LlmProviderId, string> = {
  builtin: '',
  openai: OPENAI_BASE_URL,
  anthropic: 'https://api.anthropic.com/v1',
};
export const BUILTIN_MODEL = 'taleweaver-demo';
/** The longest reply when none is set: room for the rules' longest length with a margin. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 500;

export const llmSettings = {
  NARRATORS_FILE: setting({
    group: 'Narrator',
    doc: 'A JSON catalogue of narrators players pick from (see below); unset: the LLM_* narrator alone, id `default`.',
    example: 'narrators.json',
    schema: z.string().trim().min(1),
  }),
  LLM_PROVIDER: setting({
    group: 'Narrator',
    doc: 'Who writes the story: `builtin` (the offline demo narrator), `openai` (any compatible server) or `anthropic`.',
    default: 'builtin',
    example: 'openai',
    schema: providerId('LLM_PROVIDER', LLM_PROVIDERS),
  }),
  LLM_BASE_URL: setting({
    group: 'Narrator',
    doc: "The API root: OpenAI's or Anthropic's for their provider; or OpenRouter, vLLM, llama.cpp, Ollama, LM Studio.",
    unsetDoc: 'per provider',
    schema: httpUrl('LLM_BASE_URL'),
  }),
  LLM_API_KEY: setting({
    group: 'Narrator',
    doc: "The provider's key (required for `anthropic`; local servers often need none).",
    secret: true,
    example: 'sk-…',
    schema: z.string().trim(),
  }),
  LLM_MODEL: setting({
    group: 'Narrator',
    doc: 'Model name; required for `openai` and `anthropic`.',
    example: 'gpt-4o-mini',
    schema: z.string().trim(),
  }),
  LLM_TIMEOUT_MS: setting({
    group: 'Narrator',
    doc: 'Longest a reply may take, first token to last; then 504.',
    default: '60000',
    schema: positiveInt('LLM_TIMEOUT_MS'),
  }),
  LLM_CONTEXT_TOKENS: setting({
    group: 'Narrator',
    doc: "The model's context window; prompts are fitted into it.",
    default: '8192',
    schema: positiveInt('LLM_CONTEXT_TOKENS'),
  }),
  LLM_MAX_OUTPUT_TOKENS: setting({
    group: 'Narrator',
    doc: `Longest reply; must leave at least ${MIN_PROMPT_BUDGET_TOKENS} tokens of the window for the prompt.`,
    default: String(DEFAULT_MAX_OUTPUT_TOKENS),
    schema: positiveInt('LLM_MAX_OUTPUT_TOKENS'),
  }),
  LLM_TEMPERATURE: setting({
    group: 'Narrator',
    doc: 'Sampling temperature, 0-2.',
    default: '0.8',
    schema: z
      .string()
      .trim()
      .regex(/^\d+(\.\d+)?$/, 'LLM_TEMPERATURE must be a number between 0 and 2')
      .transform(Number)
      .refine((n) => n <= 2, 'LLM_TEMPERATURE must be a number between 0 and 2'),
  }),
  LLM_CARD_SHARE: setting({
    group: 'Narrator',
    doc: "The share of the prompt's room story cards may use, always-on and triggered together (0-0.9).",
    default: '0.25',
    schema: z
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
      ),
  }),
  LLM_RECALL_TOKENS: setting({
    group: 'Narrator',
    doc: "Tokens of each turn's prompt for the story bible's facts and recalled passages; `0` turns both off.",
    // 200: the story bible's facts and two or three passages. bench:recall finds every planted fact
    // with it (passages alone too); bench:cache measured the unchanged prefix at 8k at 0.90 with it,
    // 0.88 with 300 and 0.84 with 700, since the volatile tail is never part of the next prompt.
    default: '200',
    schema: z
      .string()
      .trim()
      .regex(/^\d+$/, 'LLM_RECALL_TOKENS must be a whole number of tokens (0 turns recall off)')
      .transform(Number),
  }),
  LLM_AUTHORS_NOTE_DEPTH: setting({
    group: 'Narrator',
    doc: "How many messages from the end of each turn's prompt the author's note goes (1-100).",
    // 3: into the player's previous action, under the last reply; near enough the end that models heed
    // it (the peers' default depth), far enough that the last action and reply stay as they were.
    default: '3',
    schema: z
      .string()
      .trim()
      .regex(/^\d+$/, 'LLM_AUTHORS_NOTE_DEPTH must be a whole number of messages from 1 to 100')
      .transform(Number)
      .refine((n) => n >= 1 && n <= 100, 'LLM_AUTHORS_NOTE_DEPTH must be a whole number of messages from 1 to 100'),
  }),
  BUILTIN_NARRATOR_WORD_DELAY_MS: setting({
    group: 'Narrator',
    doc: "The demo narrator's pace while streaming, per word (`0`: all at once).",
    default: '35',
    schema: z
      .string()
      .trim()
      .regex(/^\d+$/, 'BUILTIN_NARRATOR_WORD_DELAY_MS must be a whole number of milliseconds (0 for instant)')
      .transform(Number),
  }),
  ...loopGuardSettings,
  ...priceSettings,
};

type LlmEnv = ParsedSettings<typeof llmSettings>;

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

/** The narrator's configuration (`config.llm`), read from its variables. */
export function llmConfig(e: LlmEnv) {
  return {
    provider: e.LLM_PROVIDER,
    baseUrl: (e.LLM_BASE_URL ?? DEFAULT_BASE_URLS[e.LLM_PROVIDER]).replace(/\/+$/, ''),
    apiKey: e.LLM_API_KEY || undefined,
    model: e.LLM_PROVIDER === 'builtin' ? BUILTIN_MODEL : (e.LLM_MODEL as string),
    timeoutMs: e.LLM_TIMEOUT_MS,
    contextTokens: e.LLM_CONTEXT_TOKENS,
    maxOutputTokens: e.LLM_MAX_OUTPUT_TOKENS,
    temperature: e.LLM_TEMPERATURE,
    /** The highest temperature a story may ask this narrator for (each provider's own cap applies too). */
    temperatureMax: 2,
    /** Pause between the offline narrator's words (0 streams at once; tests use 0). */
    builtinWordDelayMs: e.BUILTIN_NARRATOR_WORD_DELAY_MS,
    /** The share of the prompt's room that story cards may use, always-on and triggered together (LLM_CARD_SHARE). */
    cardShare: e.LLM_CARD_SHARE,
    /** Tokens of each turn's prompt that the story bible's facts and the passages recalled from the memory bank may use; 0 turns them off (LLM_RECALL_TOKENS). */
    recallTokens: e.LLM_RECALL_TOKENS,
    /** How many messages from the end of a turn's prompt the story's author's note goes (LLM_AUTHORS_NOTE_DEPTH). */
    authorsNoteDepth: e.LLM_AUTHORS_NOTE_DEPTH,
    /** The loop guard (LOOP_*): each reply checked for repeating the last ones, and asked once more. */
    loopGuard: loopGuardConfig(e),
    /** What the operator pays per million tokens (LLM_PRICE_*): every dollar figure is priced with them. */
    prices: pricesConfig(e),
  };
}

export type LlmConfig = ReturnType<typeof llmConfig>;
