// Arithmetic captcha: a question with two integers and one of + - ×. The answer stays in the
// database under the hash of a token the visitor holds in a cookie; it lives ten minutes and
// is consumed by a wrong answer or a successful registration.
import { randomInt } from 'node:crypto';
import type { Repositories } from '@server/db/repositories';
import { digestToken, newToken } from './tokens';

export const CAPTCHA_LIFETIME_MS = 10 * 60_000;

export interface CaptchaChallenge {
  question: string;
  answer: number;
}

/** Picks a question whose answer is a small non-negative whole number, easy for people. */
export function makeChallenge(pick: (min: number, maxExclusive: number) => number = randomInt): CaptchaChallenge {
  const operator = (['+', '-', '×'] as const)[pick(0, 3)];
  if (operator === '×') {
    const a = pick(2, 10);
    const b = pick(2, 10);
    return { question: `What is ${a} × ${b}?`, answer: a * b };
  }
  const a = pick(1, 21);
  const b = pick(1, 21);
  if (operator === '-') {
    const [big, small] = a >= b ? [a, b] : [b, a];
    return { question: `What is ${big} - ${small}?`, answer: big - small };
  }
  return { question: `What is ${a} + ${b}?`, answer: a + b };
}

export type CaptchaCheck = 'correct' | 'wrong' | 'missing';

export function createCaptchaService(repos: Pick<Repositories, 'captchas'>, now: () => Date) {
  return {
    async issue(previousToken: string | undefined): Promise<{ token: string; question: string }> {
      // A reload replaces the visitor's previous challenge rather than piling them up.
      if (previousToken) await repos.captchas.delete(digestToken(previousToken));
      const challenge = makeChallenge();
      const token = newToken();
      await repos.captchas.insert({
        tokenHash: digestToken(token),
        answer: challenge.answer,
        expiresAt: new Date(now().getTime() + CAPTCHA_LIFETIME_MS),
      });
      return { token, question: challenge.question };
    },

    /** Checks an answer; a wrong one consumes the challenge so it cannot be guessed at. */
    async check(token: string | undefined, answer: string): Promise<CaptchaCheck> {
      if (!token) return 'missing';
      const tokenHash = digestToken(token);
      const challenge = await repos.captchas.findValid(tokenHash, now());
      if (!challenge) return 'missing';
      const given = answer.trim();
      if (/^-?\d+$/.test(given) && Number(given) === challenge.answer) return 'correct';
      await repos.captchas.delete(tokenHash);
      return 'wrong';
    },

    async consume(token: string): Promise<void> {
      await repos.captchas.delete(digestToken(token));
    },
  };
}
export type CaptchaService = ReturnType<typeof createCaptchaService>;
