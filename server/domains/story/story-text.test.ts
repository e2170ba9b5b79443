// Small pure pieces of the story services: reply tidying, title cleaning, CSV fields, the
// allowance balance, error mapping and key scrubbing, and the admin card's provider label.
import { describe, expect, it } from 'vitest';
import { describeProvider } from '@server/ai/llm/registry';
import { NarratorError } from '@server/ai/llm/types';
import { loadConfig } from '@server/kernel/config';
import { remainingAllowance } from '../account/accounts';
import { csvField, monthLabel } from '../admin/admin';
import { tidyReply } from './reply-text';
import { statusOf } from '@server/http/error-status';
import { narratorFailed } from './narrator-errors';
import { redact } from '@server/kernel/redact';
import { cleanTitle } from './reads';

describe('tidyReply', () => {
  it('cuts a reply stopped by the length cap back to its last full sentence', () => {
    expect(tidyReply('You run. The door slams. Behind it, something')).toBe('You run. The door slams.');
    expect(tidyReply('  A whole reply?  ')).toBe('A whole reply?');
    expect(tidyReply('One long unfinished sentence with no stop')).toBe('One long unfinished sentence with no stop');
  });
});

describe('cleanTitle', () => {
  it('takes the first line without quotes, labels, markdown or closing punctuation', () => {
    expect(cleanTitle('"The Salt Road."\nA story of smugglers')).toBe('The Salt Road');
    expect(cleanTitle('**Title: Embers of Ash**')).toBe('Embers of Ash');
    expect(cleanTitle('   ')).toBe('');
  });
});

describe('csvField', () => {
  it('quotes separators and defuses formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('+1')).toBe("'+1");
    expect(csvField(-5)).toBe('-5');
    expect(csvField(null)).toBe('');
    expect(csvField(true)).toBe('true');
  });

  it('labels the UTC month as YYYY-MM', () => {
    expect(monthLabel(new Date('2026-03-31T23:30:00Z'))).toBe('2026-03');
  });
});

describe('remainingAllowance', () => {
  it('is null when unlimited and never negative', () => {
    expect(remainingAllowance(null, 10)).toBeNull();
    expect(remainingAllowance(100, 30)).toBe(70);
    expect(remainingAllowance(100, 130)).toBe(0);
  });
});

describe('narrator errors', () => {
  const alone = { id: 'default', label: 'gpt-4o-mini', named: false };
  it('maps each failure to its kind (and so its status), code and sentence, naming a started story when asked', () => {
    const timeout = narratorFailed(new NarratorError('timeout', 'x'), alone);
    expect(timeout).toMatchObject({
      kind: 'providerTimeout',
      code: 'NARRATOR_TIMEOUT',
      message: 'The narrator took too long to answer. Please try again.',
      extra: { narrator: 'default' },
    });
    expect(statusOf(timeout)).toBe(504);
    const unavailable = narratorFailed(new NarratorError('unavailable', 'x'), alone, 7);
    expect(unavailable).toMatchObject({
      kind: 'providerFailed',
      code: 'NARRATOR_UNAVAILABLE',
      extra: { storyId: 7, narrator: 'default' },
    });
    expect(statusOf(unavailable)).toBe(502);
    const misconfigured = narratorFailed(new NarratorError('misconfigured', 'x'), alone);
    expect(misconfigured).toMatchObject({
      kind: 'providerFailed',
      message: 'The narrator is not configured correctly.',
    });
    expect(statusOf(misconfigured)).toBe(502);
  });

  it('names the narrator in the sentence when the player has several to choose from', () => {
    const deep = { id: 'deep', label: 'Deep', named: true };
    expect(narratorFailed(new NarratorError('timeout', 'x'), deep)).toMatchObject({
      message: 'The narrator Deep took too long to answer. Please try again.',
      extra: { narrator: 'deep' },
    });
    expect(narratorFailed(new NarratorError('unavailable', 'x'), deep).message).toBe(
      'The narrator Deep is unavailable right now. Please try again.',
    );
    expect(narratorFailed(new NarratorError('misconfigured', 'x'), deep).message).toBe(
      'The narrator Deep is not configured correctly.',
    );
  });

  it('scrubs the API key out of log details', () => {
    expect(redact('HTTP 401: Incorrect API key provided: sk-abc123', ['sk-abc123'])).toBe(
      'HTTP 401: Incorrect API key provided: [redacted]',
    );
    expect(redact('no key here', [undefined])).toBe('no key here');
  });
});

describe('describeProvider', () => {
  it('names the builtin narrator as the offline demo and says how to connect a real model', () => {
    const builtin = describeProvider(loadConfig({}).llm);
    expect(builtin.provider).toBe('Offline demo narrator (builtin)');
    expect(builtin.notice).toMatch(/LLM_PROVIDER=openai[^]*LLM_BASE_URL, LLM_API_KEY and LLM_MODEL/);
    expect(describeProvider(loadConfig({ LLM_PROVIDER: 'openai', LLM_MODEL: 'gpt-4o-mini' }).llm)).toEqual({
      provider: 'OpenAI-compatible (gpt-4o-mini)',
      notice: null,
    });
  });
});
