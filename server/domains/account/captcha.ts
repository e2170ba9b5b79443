// Arithmetic captcha: a question with two integers and one of + - ×. The answer stays in the
// database under the hash of a token the visitor holds in a cookie; it lives ten minutes and is
// single use: an answer takes it out atomically; only a correct answer whose registration is then
// refused (a taken name) gives it back, so the player fixes the name without solving again.
import { randomInt } from 'node:crypto';
import type { Repositories } from '@server/db/repositories';
import { digestToken, newToken } from './bearer-tokens';

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
export interface CaptchaClaim {
  result: CaptchaCheck;
  /** Puts a correctly answered challenge back (the registration was refused for another reason). */
  giveBack: () => Promise<void>;
}

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
    async claim(token: string | undefined, answer: string): Promise<CaptchaClaim> {
      const none = async () => {};
      if (!token) return { result: 'missing', giveBack: none };
      const tokenHash = digestToken(token);
      const challenge = await repos.captchas.take(tokenHash, now());
      if (!challenge) return { result: 'missing', giveBack: none };
      const given = answer.trim();
      if (!(/^-?\d+$/.test(given) && Number(given) === challenge.answer)) return { result: 'wrong', giveBack: none };
      return {
        result: 'correct',
        giveBack: () => repos.captchas.insert({ tokenHash, answer: challenge.answer, expiresAt: challenge.expiresAt }),
      };
    },
  };
}
export type CaptchaService = ReturnType<typeof createCaptchaService>;
