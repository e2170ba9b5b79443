// Configuration parsing: defaults, every variable, and one clear message per bad value.
import { describe, expect, it } from 'vitest';
import { configProblems as problems } from '@server/test/config-env';
import { ConfigError, loadConfig } from './index';

describe('loadConfig', () => {
  it('has working defaults: port 3000, ./data, embedded database, auto-secure cookies', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.cookieSecure).toBe('auto');
    expect(config.embeddedDbCompiler).toBe('optimizing');
    expect(config.trustProxy).toBe(false);
    expect(config.adminUsernames).toEqual([]);
    expect(config.rateLimits).toEqual({
      loginMaxFailures: 10,
      loginWindowMs: 900_000,
      registerPerHour: 30,
      captchaPerMinute: 30,
    });
    expect(config.sharedReadsPerMinute).toBe(120);
    expect(config.publicUrl).toBeUndefined();
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/tmp/tw',
      EMBEDDED_DB_COMPILER: 'Baseline',
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
      embeddedDbCompiler: 'baseline',
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
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        COOKIE_SECURE: 'sometimes',
        LOGIN_MAX_FAILURES: '0',
        TRUST_PROXY: 'maybe?',
        EMBEDDED_DB_COMPILER: 'turbo',
      });
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
        'EMBEDDED_DB_COMPILER: EMBEDDED_DB_COMPILER must be optimizing or baseline',
      ]),
    );
    expect(problems).toHaveLength(6);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT must be a whole number between 0 and 65535/);
    expect(() => loadConfig({ PUBLIC_URL: 'stories.example.com' })).toThrow(
      /PUBLIC_URL must be an http:\/\/ or https:\/\/ address/,
    );
    expect(() => loadConfig({ SHARED_READS_PER_MINUTE: '0' })).toThrow(
      /SHARED_READS_PER_MINUTE must be greater than 0/,
    );
  });

  it('bounds shared pictures per IP and the size of a share', () => {
    expect(loadConfig({})).toMatchObject({ sharedPicturesPerMinute: 600, shareMaxBytes: 8 * 1024 * 1024 });
    expect(loadConfig({ SHARED_PICTURES_PER_MINUTE: '90', SHARE_MAX_BYTES: '1048576' })).toMatchObject({
      sharedPicturesPerMinute: 90,
      shareMaxBytes: 1_048_576,
    });
    expect(() => loadConfig({ SHARED_PICTURES_PER_MINUTE: '0' })).toThrow(
      /SHARED_PICTURES_PER_MINUTE must be greater than 0/,
    );
    expect(() => loadConfig({ SHARE_MAX_BYTES: '8MB' })).toThrow(/SHARE_MAX_BYTES must be a whole number/);
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
      temperatureMax: 2,
      builtinWordDelayMs: 35,
      cardShare: 0.25,
      recallTokens: 200,
      authorsNoteDepth: 3,
      loopGuard: {
        on: true,
        thresholds: { ngramShare: 0.7, openingWords: 12, cycleRepeats: 3, cycleMinWords: 12 },
        frequencyPenalty: 0.5,
        dry: false,
      },
      // The spec's rates: $0.000004 a text token, $0.00002 an image token.
      prices: { inputPerMillion: 4, cachedInputPerMillion: 4, outputPerMillion: 4, imagePerMillion: 20 },
    });
    expect(config.userMonthlyTokenLimit).toBeNull();
    expect(config.storyMaxCards).toBe(1000);
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
      LLM_CARD_SHARE: '0.4',
      LLM_RECALL_TOKENS: '900',
      LLM_AUTHORS_NOTE_DEPTH: '5',
      LOOP_GUARD: 'off',
      LOOP_NGRAM_SHARE: '0.8',
      LOOP_OPENING_WORDS: '16',
      LOOP_CYCLE_REPEATS: '4',
      LOOP_CYCLE_MIN_WORDS: '20',
      LOOP_FREQUENCY_PENALTY: '0.3',
      LOOP_DRY: 'on',
      LLM_PRICE_INPUT: '2.5',
      LLM_PRICE_CACHED_INPUT: '1.25',
      LLM_PRICE_OUTPUT: '10',
      USER_MONTHLY_TOKEN_LIMIT: '200000',
      STORY_MAX_CARDS: '50',
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
      temperatureMax: 2,
      builtinWordDelayMs: 0,
      cardShare: 0.4,
      recallTokens: 900,
      authorsNoteDepth: 5,
      loopGuard: {
        on: false,
        thresholds: { ngramShare: 0.8, openingWords: 16, cycleRepeats: 4, cycleMinWords: 20 },
        frequencyPenalty: 0.3,
        dry: true,
      },
      prices: { inputPerMillion: 2.5, cachedInputPerMillion: 1.25, outputPerMillion: 10, imagePerMillion: 20 },
    });
    expect(config.userMonthlyTokenLimit).toBe(200_000);
    expect(config.storyMaxCards).toBe(50);
  });

  it('reads the hourly narrator rates, 300 turns and 300 side calls by default, and names a bad one', () => {
    expect(loadConfig({}).narratorCallsPerHour).toEqual({ turns: 300, sideCalls: 300 });
    expect(loadConfig({ USER_TURNS_PER_HOUR: '40', USER_SIDE_CALLS_PER_HOUR: '12' }).narratorCallsPerHour).toEqual({
      turns: 40,
      sideCalls: 12,
    });
    expect(() => loadConfig({ USER_TURNS_PER_HOUR: '0', USER_SIDE_CALLS_PER_HOUR: 'many' })).toThrow(
      'USER_TURNS_PER_HOUR: USER_TURNS_PER_HOUR must be greater than 0\n  - USER_SIDE_CALLS_PER_HOUR: USER_SIDE_CALLS_PER_HOUR must be a whole number',
    );
  });

  it('prices cached input at the input price until LLM_PRICE_CACHED_INPUT is set, and names a bad price', () => {
    expect(loadConfig({ LLM_PRICE_INPUT: '0.15', LLM_PRICE_OUTPUT: '.6' }).llm.prices).toEqual({
      inputPerMillion: 0.15,
      cachedInputPerMillion: 0.15,
      outputPerMillion: 0.6,
      imagePerMillion: 20,
    });
    expect(() => loadConfig({ LLM_PRICE_INPUT: '-1', LLM_PRICE_CACHED_INPUT: 'free' })).toThrow(
      'LLM_PRICE_INPUT: LLM_PRICE_INPUT must be US dollars per million tokens, from 0 to 10000\n  - LLM_PRICE_CACHED_INPUT: LLM_PRICE_CACHED_INPUT must be US dollars per million tokens, from 0 to 10000',
    );
  });

  it('uses each hosted provider default URL', () => {
    expect(loadConfig({ LLM_PROVIDER: 'openai', LLM_MODEL: 'gpt-4o-mini' }).llm.baseUrl).toBe(
      'https://api.openai.com/v1',
    );
    expect(loadConfig({ LLM_PROVIDER: 'anthropic', LLM_MODEL: 'claude-x', LLM_API_KEY: 'k' }).llm.baseUrl).toBe(
      'https://api.anthropic.com/v1',
    );
  });

  it('names each bad LLM variable with a clear message', () => {
    expect(
      problems({
        LLM_PROVIDER: 'gpt',
        LLM_BASE_URL: 'ftp://x',
        LLM_TIMEOUT_MS: '0',
        LLM_TEMPERATURE: '3',
        BUILTIN_NARRATOR_WORD_DELAY_MS: 'fast',
        LLM_CARD_SHARE: '0.95',
        LLM_RECALL_TOKENS: 'lots',
        LLM_AUTHORS_NOTE_DEPTH: '0',
        LOOP_GUARD: 'sometimes',
        LOOP_NGRAM_SHARE: '1.5',
        LOOP_OPENING_WORDS: '3',
        LOOP_CYCLE_REPEATS: 'x',
        LOOP_FREQUENCY_PENALTY: '-1',
        USER_MONTHLY_TOKEN_LIMIT: '-5',
      }),
    ).toEqual([
      'LLM_PROVIDER: LLM_PROVIDER must be builtin, openai or anthropic',
      'LLM_BASE_URL: LLM_BASE_URL must be an http:// or https:// URL',
      'LLM_TIMEOUT_MS: LLM_TIMEOUT_MS must be greater than 0',
      'LLM_TEMPERATURE: LLM_TEMPERATURE must be a number between 0 and 2',
      'LLM_CARD_SHARE: LLM_CARD_SHARE must be a number from 0 to 0.9 (the share of the prompt story cards may use)',
      'LLM_RECALL_TOKENS: LLM_RECALL_TOKENS must be a whole number of tokens (0 turns recall off)',
      'LLM_AUTHORS_NOTE_DEPTH: LLM_AUTHORS_NOTE_DEPTH must be a whole number of messages from 1 to 100',
      'BUILTIN_NARRATOR_WORD_DELAY_MS: BUILTIN_NARRATOR_WORD_DELAY_MS must be a whole number of milliseconds (0 for instant)',
      'LOOP_GUARD: LOOP_GUARD must be on or off',
      'LOOP_NGRAM_SHARE: LOOP_NGRAM_SHARE must be a share from 0.1 to 1',
      'LOOP_OPENING_WORDS: LOOP_OPENING_WORDS must be a whole number of words, 5 or more',
      'LOOP_CYCLE_REPEATS: LOOP_CYCLE_REPEATS must be a whole number of repeats, 2 or more',
      'LOOP_FREQUENCY_PENALTY: LOOP_FREQUENCY_PENALTY must be a number from 0 to 2',
      'USER_MONTHLY_TOKEN_LIMIT: USER_MONTHLY_TOKEN_LIMIT must be a whole number',
    ]);
    expect(problems({ LLM_PROVIDER: 'anthropic' })).toEqual([
      'LLM_MODEL: LLM_MODEL is required when LLM_PROVIDER is anthropic',
      'LLM_API_KEY: LLM_API_KEY is required when LLM_PROVIDER is anthropic',
    ]);
    expect(problems({ LLM_PROVIDER: 'openai', LLM_MODEL: 'm' })).toEqual([]);
    expect(problems({ LLM_CONTEXT_TOKENS: '2500', LLM_MAX_OUTPUT_TOKENS: '500' })).toEqual([
      'LLM_CONTEXT_TOKENS: LLM_CONTEXT_TOKENS must exceed LLM_MAX_OUTPUT_TOKENS by at least 2048 (the prompt needs room for the rules, the premise and the action)',
    ]);
  });
});

describe('Redis settings', () => {
  it('default to counting in this process, under the taleweaver: prefix', () => {
    expect(loadConfig({}).redis).toEqual({ url: undefined, keyPrefix: 'taleweaver:' });
  });

  it('read REDIS_URL (redis:// or rediss://) and REDIS_KEY_PREFIX', () => {
    expect(loadConfig({ REDIS_URL: ' redis://127.0.0.1:6379 ', REDIS_KEY_PREFIX: 'tw-prod:' }).redis).toEqual({
      url: 'redis://127.0.0.1:6379',
      keyPrefix: 'tw-prod:',
    });
    expect(loadConfig({ REDIS_URL: 'rediss://user:pw@cache.example.com:6380/2' }).redis.url).toBe(
      'rediss://user:pw@cache.example.com:6380/2',
    );
  });

  it('refuse a bad address or prefix with one line each', () => {
    for (const url of ['127.0.0.1:6379', 'http://cache:6379', 'redis://bad host']) {
      expect(() => loadConfig({ REDIS_URL: url }), url).toThrow(
        /^Invalid configuration:\n {2}- REDIS_URL: REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL, for example redis:\/\/127\.0\.0\.1:6379$/,
      );
    }
    expect(() => loadConfig({ REDIS_KEY_PREFIX: 'has space' })).toThrow(
      /REDIS_KEY_PREFIX: REDIS_KEY_PREFIX must be 1 to 64 letters, digits or _ : \. -/,
    );
  });
});

describe('image settings', () => {
  it('default to the offline painter, 16:9, 2 jobs at once, 30 pictures an hour and a 2-minute timeout', () => {
    expect(loadConfig({}).image).toEqual({
      provider: 'builtin',
      baseUrl: '',
      apiKey: undefined,
      model: 'taleweaver-painter',
      timeoutMs: 120_000,
      concurrency: 2,
      maxPerHour: 30,
      width: 1024,
      height: 576,
      steps: 25,
    });
  });

  it('reads every image variable, per provider defaults included', () => {
    const openai = loadConfig({
      IMAGE_PROVIDER: 'OpenAI',
      IMAGE_MODEL: 'gpt-image-1',
      IMAGE_API_KEY: 'sk-x',
      IMAGE_TIMEOUT_MS: '5000',
      IMAGE_CONCURRENCY: '4',
      IMAGE_MAX_PER_HOUR: '7',
    }).image;
    expect(openai).toMatchObject({
      provider: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-image-1',
      apiKey: 'sk-x',
      timeoutMs: 5000,
      concurrency: 4,
      maxPerHour: 7,
      width: 1536,
      height: 1024,
    });
    const a1111 = loadConfig({
      IMAGE_PROVIDER: 'automatic1111',
      IMAGE_BASE_URL: 'http://gpu:7860/',
      IMAGE_SIZE: '768x432',
      IMAGE_STEPS: '12',
    }).image;
    expect(a1111).toMatchObject({
      provider: 'automatic1111',
      baseUrl: 'http://gpu:7860',
      model: 'automatic1111',
      width: 768,
      height: 432,
      steps: 12,
    });
    expect(loadConfig({ IMAGE_PROVIDER: 'automatic1111' }).image.baseUrl).toBe('http://127.0.0.1:7860');
    expect(loadConfig({ IMAGE_PROVIDER: 'none' }).image.provider).toBe('none');
  });

  it('refuses bad image settings with one line each', () => {
    expect(problems({ IMAGE_PROVIDER: 'midjourney' })).toEqual([
      'IMAGE_PROVIDER: IMAGE_PROVIDER must be builtin, openai, automatic1111 or none',
    ]);
    expect(problems({ IMAGE_PROVIDER: 'openai' })).toEqual([
      'IMAGE_MODEL: IMAGE_MODEL is required when IMAGE_PROVIDER is openai (for example gpt-image-1 or dall-e-3)',
    ]);
    expect(problems({ IMAGE_BASE_URL: 'ftp://x' })).toEqual([
      'IMAGE_BASE_URL: IMAGE_BASE_URL must be an http:// or https:// URL',
    ]);
    expect(problems({ IMAGE_SIZE: 'big' })).toEqual([
      'IMAGE_SIZE: IMAGE_SIZE must be WIDTHxHEIGHT, for example 1024x576',
    ]);
    expect(problems({ IMAGE_SIZE: '8000x8000' })).toEqual([
      'IMAGE_SIZE: IMAGE_SIZE must be between 64x64 and 4096x4096',
    ]);
    expect(problems({ IMAGE_CONCURRENCY: '0' })).toEqual([
      'IMAGE_CONCURRENCY: IMAGE_CONCURRENCY must be greater than 0',
    ]);
    expect(problems({ IMAGE_TIMEOUT_MS: 'soon' })).toEqual([
      'IMAGE_TIMEOUT_MS: IMAGE_TIMEOUT_MS must be a whole number',
    ]);
  });

  it('give an abandoned picture job a minute past the timeout, or IMAGE_JOB_GRACE_SECONDS', () => {
    expect(loadConfig({}).imageJobGraceSeconds).toBe(60);
    expect(loadConfig({ IMAGE_JOB_GRACE_SECONDS: '2' }).imageJobGraceSeconds).toBe(2);
    expect(problems({ IMAGE_JOB_GRACE_SECONDS: '0' })).toEqual([
      'IMAGE_JOB_GRACE_SECONDS: IMAGE_JOB_GRACE_SECONDS must be greater than 0',
    ]);
  });
});

describe('speech and ads settings', () => {
  it('default to browser voices only, no server transcription, and ads with the house ad', () => {
    const config = loadConfig({});
    expect(config.tts).toEqual({
      provider: 'none',
      baseUrl: 'https://api.openai.com/v1',
      apiKey: undefined,
      model: '',
      voices: ['alloy', 'ash', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer'],
      timeoutMs: 30_000,
      maxPerHour: 600,
    });
    expect(config.stt).toEqual({
      provider: 'none',
      baseUrl: 'https://api.openai.com/v1',
      apiKey: undefined,
      model: '',
      timeoutMs: 60_000,
      maxPerHour: 60,
    });
    expect(config.ads).toEqual({ enabled: true, sponsorUrl: null });
  });

  it('reads every speech and ads variable', () => {
    const config = loadConfig({
      TTS_PROVIDER: 'OpenAI',
      TTS_BASE_URL: 'http://127.0.0.1:8880/v1/',
      TTS_API_KEY: 'sk-tts',
      TTS_MODEL: 'kokoro',
      TTS_VOICES: ' af_bella, am_adam ,,af_bella(2)+af_sky(1), af_bella',
      TTS_TIMEOUT_MS: '9000',
      TTS_MAX_PER_HOUR: '50',
      STT_PROVIDER: 'openai',
      STT_BASE_URL: 'http://whisper:8000/v1',
      STT_API_KEY: 'sk-stt',
      STT_MODEL: 'Systran/faster-whisper-small',
      STT_TIMEOUT_MS: '20000',
      STT_MAX_PER_HOUR: '5',
      ADS_ENABLED: 'false',
      AD_SPONSOR_URL: 'https://sponsor.example.com/taleweaver?ref=app',
    });
    expect(config.tts).toEqual({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:8880/v1',
      apiKey: 'sk-tts',
      model: 'kokoro',
      voices: ['af_bella', 'am_adam', 'af_bella(2)+af_sky(1)'],
      timeoutMs: 9000,
      maxPerHour: 50,
    });
    expect(config.stt).toEqual({
      provider: 'openai',
      baseUrl: 'http://whisper:8000/v1',
      apiKey: 'sk-stt',
      model: 'Systran/faster-whisper-small',
      timeoutMs: 20_000,
      maxPerHour: 5,
    });
    expect(config.ads).toEqual({ enabled: false, sponsorUrl: 'https://sponsor.example.com/taleweaver?ref=app' });
    expect(loadConfig({ TTS_PROVIDER: 'none', STT_PROVIDER: 'NONE' })).toMatchObject({
      tts: { provider: 'none' },
      stt: { provider: 'none' },
    });
  });

  it('refuses bad speech and ads settings with one line each', () => {
    expect(
      problems({
        TTS_PROVIDER: 'elevenlabs',
        TTS_BASE_URL: 'api.openai.com',
        TTS_VOICES: 'nova, my voice',
        TTS_TIMEOUT_MS: '0',
        TTS_MAX_PER_HOUR: 'lots',
        STT_PROVIDER: 'google',
        STT_BASE_URL: 'ftp://whisper',
        STT_TIMEOUT_MS: '-1',
        STT_MAX_PER_HOUR: '0',
        ADS_ENABLED: 'sometimes',
        AD_SPONSOR_URL: 'javascript:alert(1)',
      }),
    ).toEqual([
      'TTS_PROVIDER: TTS_PROVIDER must be none or openai',
      'TTS_BASE_URL: TTS_BASE_URL must be an http:// or https:// URL',
      'TTS_VOICES: TTS_VOICES must be a comma list of voice names (letters, digits and _ - . + ( ), at most 100 characters each)',
      'TTS_TIMEOUT_MS: TTS_TIMEOUT_MS must be greater than 0',
      'TTS_MAX_PER_HOUR: TTS_MAX_PER_HOUR must be a whole number',
      'STT_PROVIDER: STT_PROVIDER must be none or openai',
      'STT_BASE_URL: STT_BASE_URL must be an http:// or https:// URL',
      'STT_TIMEOUT_MS: STT_TIMEOUT_MS must be a whole number',
      'STT_MAX_PER_HOUR: STT_MAX_PER_HOUR must be greater than 0',
      'ADS_ENABLED: ADS_ENABLED must be true or false',
      'AD_SPONSOR_URL: AD_SPONSOR_URL must be an http:// or https:// URL',
    ]);
    expect(problems({ TTS_PROVIDER: 'openai', STT_PROVIDER: 'openai' })).toEqual([
      'TTS_MODEL: TTS_MODEL is required when TTS_PROVIDER is openai (for example gpt-4o-mini-tts, tts-1 or kokoro)',
      'STT_MODEL: STT_MODEL is required when STT_PROVIDER is openai (for example whisper-1 or gpt-4o-mini-transcribe)',
    ]);
    expect(problems({ TTS_VOICES: ' , ,' })).toEqual([
      'TTS_VOICES: TTS_VOICES must be a comma list of voice names (letters, digits and _ - . + ( ), at most 100 characters each)',
    ]);
    expect(problems({ TTS_VOICES: 'x'.repeat(101) })).toHaveLength(1);
    expect(
      problems({ TTS_PROVIDER: 'openai', TTS_MODEL: 'tts-1', STT_PROVIDER: 'openai', STT_MODEL: 'whisper-1' }),
    ).toEqual([]);
  });
});

describe('embeddings settings', () => {
  it('default to no embeddings (full-text recall alone), 30 s a batch, 1.5 s a query, 600 calls an hour and 64 MB', () => {
    expect(loadConfig({}).embeddings).toEqual({
      provider: 'none',
      baseUrl: 'https://api.openai.com/v1',
      apiKey: undefined,
      model: '',
      timeoutMs: 30_000,
      queryTimeoutMs: 1_500,
      maxPerHour: 600,
      cacheBytes: 64 * 1024 * 1024,
    });
  });

  it('read every embeddings variable, the base URL without its trailing slash', () => {
    const config = loadConfig({
      EMBEDDINGS_PROVIDER: 'OpenAI',
      EMBEDDINGS_BASE_URL: 'http://127.0.0.1:11434/v1//',
      EMBEDDINGS_API_KEY: ' sk-emb ',
      EMBEDDINGS_MODEL: 'nomic-embed-text',
      EMBEDDINGS_TIMEOUT_MS: '12000',
      EMBEDDINGS_QUERY_TIMEOUT_MS: '800',
      EMBEDDINGS_MAX_PER_HOUR: '90',
      EMBEDDINGS_CACHE_MB: '8',
    });
    expect(config.embeddings).toEqual({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: 'sk-emb',
      model: 'nomic-embed-text',
      timeoutMs: 12_000,
      queryTimeoutMs: 800,
      maxPerHour: 90,
      cacheBytes: 8 * 1024 * 1024,
    });
    expect(loadConfig({ EMBEDDINGS_PROVIDER: 'NONE', EMBEDDINGS_API_KEY: '' }).embeddings).toMatchObject({
      provider: 'none',
      apiKey: undefined,
    });
  });

  it('refuse bad embeddings settings with one line each', () => {
    expect(
      problems({
        EMBEDDINGS_PROVIDER: 'cohere',
        EMBEDDINGS_BASE_URL: 'localhost:11434/v1',
        EMBEDDINGS_TIMEOUT_MS: '0',
        EMBEDDINGS_QUERY_TIMEOUT_MS: 'soon',
        EMBEDDINGS_MAX_PER_HOUR: '-5',
        EMBEDDINGS_CACHE_MB: '1.5',
      }),
    ).toEqual([
      'EMBEDDINGS_PROVIDER: EMBEDDINGS_PROVIDER must be none or openai',
      'EMBEDDINGS_BASE_URL: EMBEDDINGS_BASE_URL must be an http:// or https:// URL',
      'EMBEDDINGS_TIMEOUT_MS: EMBEDDINGS_TIMEOUT_MS must be greater than 0',
      'EMBEDDINGS_QUERY_TIMEOUT_MS: EMBEDDINGS_QUERY_TIMEOUT_MS must be a whole number',
      'EMBEDDINGS_MAX_PER_HOUR: EMBEDDINGS_MAX_PER_HOUR must be a whole number',
      'EMBEDDINGS_CACHE_MB: EMBEDDINGS_CACHE_MB must be a whole number',
    ]);
    expect(() => loadConfig({ EMBEDDINGS_PROVIDER: 'openai' })).toThrow(ConfigError);
    expect(problems({ EMBEDDINGS_PROVIDER: 'openai', EMBEDDINGS_MODEL: '  ' })).toEqual([
      'EMBEDDINGS_MODEL: EMBEDDINGS_MODEL is required when EMBEDDINGS_PROVIDER is openai (for example text-embedding-3-small or nomic-embed-text)',
    ]);
    expect(problems({ EMBEDDINGS_PROVIDER: 'openai', EMBEDDINGS_MODEL: 'text-embedding-3-small' })).toEqual([]);
  });
});

describe('account lookup limits and allowed hosts', () => {
  it('default to 30 username checks a minute and 10 email changes an hour per IP, and no allowed host', () => {
    const config = loadConfig({});
    expect(config.accountLookups).toEqual({ usernameChecksPerMinute: 30, emailUpdatesPerHour: 10 });
    expect(config.allowedHosts).toEqual([]);
  });

  it('read USERNAME_CHECKS_PER_MINUTE, EMAIL_UPDATES_PER_HOUR and ALLOWED_HOSTS (lower case, trimmed, no repeats)', () => {
    const config = loadConfig({
      USERNAME_CHECKS_PER_MINUTE: '12',
      EMAIL_UPDATES_PER_HOUR: '4',
      ALLOWED_HOSTS: ' Stories.Example.com, tales.example:8443,,stories.example.com,[::1]:3000 ',
    });
    expect(config.accountLookups).toEqual({ usernameChecksPerMinute: 12, emailUpdatesPerHour: 4 });
    expect(config.allowedHosts).toEqual(['stories.example.com', 'tales.example:8443', '[::1]:3000']);
  });

  it('refuse bad values with one line each', () => {
    let caught: unknown;
    try {
      loadConfig({
        USERNAME_CHECKS_PER_MINUTE: '0',
        EMAIL_UPDATES_PER_HOUR: 'ten',
        ALLOWED_HOSTS: 'https://stories.example.com',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).problems).toEqual([
      'USERNAME_CHECKS_PER_MINUTE: USERNAME_CHECKS_PER_MINUTE must be greater than 0',
      'EMAIL_UPDATES_PER_HOUR: EMAIL_UPDATES_PER_HOUR must be a whole number',
      'ALLOWED_HOSTS: ALLOWED_HOSTS must be a comma list of host names, each optionally with :port (for example stories.example.com,www.stories.example.com)',
    ]);
    for (const bad of [
      'stories.example.com/path',
      'user@stories.example.com',
      '*.example.com',
      'stories example.com',
    ]) {
      expect(() => loadConfig({ ALLOWED_HOSTS: bad })).toThrow(/ALLOWED_HOSTS must be a comma list of host names/);
    }
  });
});

describe('account quotas', () => {
  it('default to 1,000 stories, 200 live share links and 500 MB of stored text', () => {
    expect(loadConfig({}).quotas).toEqual({ maxStories: 1000, maxShares: 200, maxStoredBytes: 500 * 1024 * 1024 });
  });

  it('read USER_MAX_STORIES, USER_MAX_SHARES and USER_MAX_STORED_MB', () => {
    expect(loadConfig({ USER_MAX_STORIES: '5', USER_MAX_SHARES: '2', USER_MAX_STORED_MB: '1' }).quotas).toEqual({
      maxStories: 5,
      maxShares: 2,
      maxStoredBytes: 1_048_576,
    });
  });

  it('refuse a bad quota with one line each', () => {
    expect(problems({ USER_MAX_STORIES: '0', USER_MAX_SHARES: 'many', USER_MAX_STORED_MB: '1.5' })).toEqual([
      'USER_MAX_STORIES: USER_MAX_STORIES must be greater than 0',
      'USER_MAX_SHARES: USER_MAX_SHARES must be a whole number',
      'USER_MAX_STORED_MB: USER_MAX_STORED_MB must be a whole number',
    ]);
  });
});
