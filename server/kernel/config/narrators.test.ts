// The narrator catalogue at start-up: the LLM_* narrator alone as `default` without a file; a file's
// narrators, each a whole LlmConfig with its own window, prices and key; one problem line per mistake.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogueFile, configProblems as problems } from '@server/test/config-env';
import { loadConfig } from './index';

const swift = {
  id: 'swift',
  label: 'Swift',
  description: 'Quick and cheap.',
  provider: 'openai',
  baseUrl: 'http://127.0.0.1:8000/v1/',
  apiKeyEnv: 'SWIFT_KEY',
  model: 'small-model',
  contextTokens: 8192,
  maxOutputTokens: 500,
  prices: { input: 0.15, cachedInput: 0.075, output: 0.6 },
  access: 'everyone',
};
const deep = {
  id: 'deep',
  label: 'Deep',
  provider: 'anthropic',
  apiKeyEnv: 'DEEP_KEY',
  model: 'big-model',
  contextTokens: 200_000,
  maxOutputTokens: 1200,
  temperature: { default: 0.7, max: 1 },
  access: 'admins',
};

describe('the narrator catalogue', () => {
  it('is the LLM_* narrator alone, id default, open to everyone, when NARRATORS_FILE is unset', () => {
    const config = loadConfig({ LLM_PROVIDER: 'openai', LLM_MODEL: 'gpt-4o-mini', LLM_API_KEY: 'sk-one' });
    expect(config.narrators.defaultId).toBe('default');
    expect(config.narrators.tasks).toEqual({ summary: null, title: null, style: null });
    expect(config.narrators.narrators).toHaveLength(1);
    const [only] = config.narrators.narrators;
    expect(only).toMatchObject({ id: 'default', label: 'gpt-4o-mini', access: 'everyone' });
    expect(only.llm).toBe(config.llm);
    expect(loadConfig({}).narrators.narrators[0]).toMatchObject({ id: 'default', label: 'Demo narrator' });
  });

  it('reads each narrator of the file as a whole configuration, its key from the variable it names', () => {
    const path = catalogueFile({ default: 'swift', tasks: { summary: 'swift' }, narrators: [swift, deep] });
    const config = loadConfig({
      NARRATORS_FILE: path,
      SWIFT_KEY: 'sk-swift',
      DEEP_KEY: 'sk-deep',
      LLM_TIMEOUT_MS: '9000',
      LLM_RECALL_TOKENS: '300',
      LLM_TEMPERATURE: '1.5',
    });
    const [first, second] = config.narrators.narrators;
    expect(config.narrators.defaultId).toBe('swift');
    expect(config.narrators.tasks).toEqual({ summary: 'swift', title: null, style: null });
    expect(first).toMatchObject({ id: 'swift', label: 'Swift', description: 'Quick and cheap.', access: 'everyone' });
    expect(first.llm).toMatchObject({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:8000/v1',
      apiKey: 'sk-swift',
      model: 'small-model',
      contextTokens: 8192,
      maxOutputTokens: 500,
      temperature: 1.5,
      temperatureMax: 2,
      timeoutMs: 9000,
      recallTokens: 300,
      prices: { inputPerMillion: 0.15, cachedInputPerMillion: 0.075, outputPerMillion: 0.6, imagePerMillion: 20 },
    });
    expect(second).toMatchObject({ id: 'deep', description: '', access: 'admins' });
    expect(second.llm).toMatchObject({
      provider: 'anthropic',
      baseUrl: 'https://api.anthropic.com/v1',
      apiKey: 'sk-deep',
      contextTokens: 200_000,
      maxOutputTokens: 1200,
      temperature: 0.7,
      temperatureMax: 1,
      // No prices in the file: LLM_PRICE_*'s (the spec's rate by default).
      prices: { inputPerMillion: 4, cachedInputPerMillion: 4, outputPerMillion: 4 },
    });
    // The default narrator is what a story naming none is written with.
    expect(config.llm).toBe(first.llm);
  });

  it('lets LLM_* go unchecked when a file names the narrators', () => {
    const path = catalogueFile({
      default: 'demo',
      narrators: [{ id: 'demo', label: 'Demo', provider: 'builtin', contextTokens: 4096 }],
    });
    // LLM_PROVIDER=openai without a model would be refused on its own.
    const config = loadConfig({ NARRATORS_FILE: path, LLM_PROVIDER: 'openai' });
    expect(config.llm).toMatchObject({
      provider: 'builtin',
      model: 'taleweaver-demo',
      contextTokens: 4096,
      apiKey: undefined,
    });
  });

  it('names each mistake in the file on a line of its own', () => {
    const path = catalogueFile({
      default: 'gone',
      tasks: { title: 'nowhere' },
      narrators: [
        swift,
        { ...swift, baseUrl: undefined, apiKeyEnv: 'UNSET_KEY' },
        { id: 'tight', label: 'Tight', provider: 'openai', contextTokens: 2100, maxOutputTokens: 200 },
        { id: 'hot', label: 'Hot', provider: 'builtin', contextTokens: 8192, temperature: { default: 1.5, max: 1 } },
        { id: 'claude', label: 'Claude', provider: 'anthropic', model: 'm', contextTokens: 8192 },
      ],
    });
    expect(problems({ NARRATORS_FILE: path, SWIFT_KEY: 'k' })).toEqual([
      'NARRATORS_FILE: narrators[1].id: "swift" is listed twice',
      'NARRATORS_FILE: narrators[1].apiKeyEnv: the environment variable UNSET_KEY is not set',
      'NARRATORS_FILE: narrators[2].model: is required for openai',
      'NARRATORS_FILE: narrators[2].contextTokens: must exceed maxOutputTokens (200) by at least 2048',
      'NARRATORS_FILE: narrators[3].temperature: default must not be above max',
      'NARRATORS_FILE: narrators[4].apiKeyEnv: is required for anthropic (the variable that holds its key)',
      'NARRATORS_FILE: default: "gone" is not one of the narrators',
      'NARRATORS_FILE: tasks.title: "nowhere" is not one of the narrators',
    ]);
  });

  it('names a bad field by its place in the file, and refuses a field it does not know', () => {
    const path = catalogueFile({
      default: 'Swift!',
      narrators: [
        { ...swift, provider: 'mystery', contextTokens: 0, contexTokens: 9000, prices: { input: -1, output: 1 } },
      ],
    });
    expect(problems({ NARRATORS_FILE: path, SWIFT_KEY: 'k' })).toEqual([
      'NARRATORS_FILE: default: must be 1-40 lower-case letters, digits, - or _ (starting with a letter or digit)',
      'NARRATORS_FILE: narrators[0].provider: must be builtin, openai or anthropic',
      'NARRATORS_FILE: narrators[0].contextTokens: must be greater than 0',
      'NARRATORS_FILE: narrators[0].prices.input: must be US dollars per million tokens, from 0 to 10000',
      'NARRATORS_FILE: narrators[0]: Unrecognized key: "contexTokens"',
    ]);
  });

  it('refuses a default open to admins alone, an empty list, a missing file and one that is not JSON', () => {
    const adminsOnly = catalogueFile({ default: 'deep', narrators: [deep] });
    expect(problems({ NARRATORS_FILE: adminsOnly, DEEP_KEY: 'k' })).toEqual([
      'NARRATORS_FILE: default: "deep" must be open to everyone (its access is admins)',
    ]);
    expect(problems({ NARRATORS_FILE: catalogueFile({ default: 'a', narrators: [] }) })).toEqual([
      'NARRATORS_FILE: narrators: must list at least one narrator',
    ]);
    const missing = join(tmpdir(), `absent-narrators-${process.pid}.json`);
    expect(problems({ NARRATORS_FILE: missing })).toEqual([`NARRATORS_FILE: cannot read ${missing} (ENOENT)`]);
    const notJson = catalogueFile('{ "default": ');
    expect(problems({ NARRATORS_FILE: notJson })[0]).toMatch(new RegExp(`^NARRATORS_FILE: ${notJson} is not JSON \\(`));
  });

  it("lists its problems beside the other settings' and never prints a key", () => {
    const path = catalogueFile({ default: 'swift', narrators: [{ ...swift, contextTokens: 100 }] });
    expect(problems({ NARRATORS_FILE: path, SWIFT_KEY: 'sk-very-secret', IMAGE_PROVIDER: 'openai' })).toEqual([
      expect.stringMatching(/^IMAGE_/),
      'NARRATORS_FILE: narrators[0].contextTokens: must exceed maxOutputTokens (500) by at least 2048',
    ]);
    const fileLines = problems({ NARRATORS_FILE: path, SWIFT_KEY: 'sk-very-secret' });
    expect(fileLines).toEqual([
      'NARRATORS_FILE: narrators[0].contextTokens: must exceed maxOutputTokens (500) by at least 2048',
    ]);
    expect(fileLines.join('\n')).not.toContain('sk-very-secret');
  });
});
