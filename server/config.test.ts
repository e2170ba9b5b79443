// Configuration parsing: defaults, every variable, and one clear message per bad value.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('has working defaults: port 3000, ./data, embedded database, auto-secure cookies', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.cookieSecure).toBe('auto');
    expect(config.trustProxy).toBe(false);
    expect(config.adminUsernames).toEqual([]);
    expect(config.rateLimits).toEqual({ loginMaxFailures: 10, loginWindowMs: 900_000, registerPerHour: 30, captchaPerMinute: 30 });
    expect(config.sharedReadsPerMinute).toBe(120);
    expect(config.publicUrl).toBeUndefined();
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/tmp/tw',
      DATABASE_URL: 'postgres://u@db/tw',
      ADMIN_USERNAMES: ' Alice, bob ,,',
      TRUST_PROXY: '2',
      COOKIE_SECURE: 'TRUE',
      LOGIN_MAX_FAILURES: '5',
      LOGIN_FAILURE_WINDOW_MINUTES: '30',
      REGISTER_MAX_PER_HOUR: '3',
      CAPTCHA_MAX_PER_MINUTE: '9',
      SHARED_READS_PER_MINUTE: '7',
      PUBLIC_URL: 'https://stories.example.com/',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/tmp/tw',
      databaseUrl: 'postgres://u@db/tw',
      adminUsernames: ['alice', 'bob'],
      trustProxy: 2,
      cookieSecure: true,
      rateLimits: { loginMaxFailures: 5, loginWindowMs: 1_800_000, registerPerHour: 3, captchaPerMinute: 9 },
      sharedReadsPerMinute: 7,
      publicUrl: 'https://stories.example.com',
    });
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1,10.0.0.2' }).trustProxy).toBe('10.0.0.1,10.0.0.2');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });

  it('names each bad variable with a clear message', () => {
    let caught: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', COOKIE_SECURE: 'sometimes', LOGIN_MAX_FAILURES: '0', TRUST_PROXY: 'maybe?' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        'PORT: PORT must be a whole number between 0 and 65535',
        'DATABASE_URL: DATABASE_URL must start with postgres:// or postgresql://',
        'COOKIE_SECURE: COOKIE_SECURE must be auto, true or false',
        'LOGIN_MAX_FAILURES: LOGIN_MAX_FAILURES must be greater than 0',
        'TRUST_PROXY: TRUST_PROXY must be true, false, a hop count or a comma list of proxy addresses',
      ]),
    );
    expect(problems).toHaveLength(5);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT must be a whole number between 0 and 65535/);
    expect(() => loadConfig({ PUBLIC_URL: 'stories.example.com' })).toThrow(/PUBLIC_URL must be an http:\/\/ or https:\/\/ address/);
    expect(() => loadConfig({ SHARED_READS_PER_MINUTE: '0' })).toThrow(/SHARED_READS_PER_MINUTE must be greater than 0/);
  });

  it('defaults to the offline builtin narrator with the issue defaults and no monthly limit', () => {
    const config = loadConfig({});
    expect(config.llm).toEqual({
      provider: 'builtin',
      baseUrl: '',
      apiKey: undefined,
      model: 'taleweaver-demo',
      timeoutMs: 60_000,
      contextTokens: 8192,
      maxOutputTokens: 500,
      temperature: 0.8,
      builtinWordDelayMs: 35,
    });
    expect(config.userMonthlyTokenLimit).toBeNull();
  });

  it('reads every LLM variable', () => {
    const config = loadConfig({
      LLM_PROVIDER: 'OpenAI',
      LLM_BASE_URL: 'http://127.0.0.1:11434/v1/',
      LLM_API_KEY: 'sk-test',
      LLM_MODEL: 'llama3.1',
      LLM_TIMEOUT_MS: '1500',
      LLM_CONTEXT_TOKENS: '32768',
      LLM_MAX_OUTPUT_TOKENS: '800',
      LLM_TEMPERATURE: '1.1',
      BUILTIN_NARRATOR_WORD_DELAY_MS: '0',
      USER_MONTHLY_TOKEN_LIMIT: '200000',
    });
    expect(config.llm).toEqual({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: 'sk-test',
      model: 'llama3.1',
      timeoutMs: 1500,
      contextTokens: 32768,
      maxOutputTokens: 800,
      temperature: 1.1,
      builtinWordDelayMs: 0,
    });
    expect(config.userMonthlyTokenLimit).toBe(200_000);
  });

  it('uses each hosted provider default URL', () => {
    expect(loadConfig({ LLM_PROVIDER: 'openai', LLM_MODEL: 'gpt-4o-mini' }).llm.baseUrl).toBe('https://api.openai.com/v1');
    expect(loadConfig({ LLM_PROVIDER: 'anthropic', LLM_MODEL: 'claude-x', LLM_API_KEY: 'k' }).llm.baseUrl).toBe('https://api.anthropic.com/v1');
  });

  it('names each bad LLM variable with a clear message', () => {
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };
    expect(
      problemsOf({
        LLM_PROVIDER: 'gpt',
        LLM_BASE_URL: 'ftp://x',
        LLM_TIMEOUT_MS: '0',
        LLM_TEMPERATURE: '3',
        BUILTIN_NARRATOR_WORD_DELAY_MS: 'fast',
        USER_MONTHLY_TOKEN_LIMIT: '-5',
      }),
    ).toEqual([
      'LLM_PROVIDER: LLM_PROVIDER must be builtin, openai or anthropic',
      'LLM_BASE_URL: LLM_BASE_URL must be an http:// or https:// URL',
      'LLM_TIMEOUT_MS: LLM_TIMEOUT_MS must be greater than 0',
      'LLM_TEMPERATURE: LLM_TEMPERATURE must be a number between 0 and 2',
      'BUILTIN_NARRATOR_WORD_DELAY_MS: BUILTIN_NARRATOR_WORD_DELAY_MS must be a whole number of milliseconds (0 for instant)',
      'USER_MONTHLY_TOKEN_LIMIT: USER_MONTHLY_TOKEN_LIMIT must be a whole number',
    ]);
    expect(problemsOf({ LLM_PROVIDER: 'anthropic' })).toEqual([
      'LLM_MODEL: LLM_MODEL is required when LLM_PROVIDER is anthropic',
      'LLM_API_KEY: LLM_API_KEY is required when LLM_PROVIDER is anthropic',
    ]);
    expect(problemsOf({ LLM_PROVIDER: 'openai', LLM_MODEL: 'm' })).toEqual([]);
    expect(problemsOf({ LLM_CONTEXT_TOKENS: '2500', LLM_MAX_OUTPUT_TOKENS: '500' })).toEqual([
      'LLM_CONTEXT_TOKENS: LLM_CONTEXT_TOKENS must exceed LLM_MAX_OUTPUT_TOKENS by at least 2048 (the prompt needs room for the rules, the premise and the action)',
    ]);
  });
});
