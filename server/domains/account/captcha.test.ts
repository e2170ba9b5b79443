// The captcha's questions: two integers, one of + - ×, and a small non-negative answer.
import { describe, expect, it } from 'vitest';
import { makeChallenge } from './captcha';

const scripted = (values: number[]) => {
  let i = 0;
  return () => values[i++];
};

describe('makeChallenge', () => {
  it('builds addition, subtraction (never negative) and multiplication questions', () => {
    expect(makeChallenge(scripted([0, 7, 5]))).toEqual({ question: 'What is 7 + 5?', answer: 12 });
    expect(makeChallenge(scripted([1, 3, 9]))).toEqual({ question: 'What is 9 - 3?', answer: 6 });
    expect(makeChallenge(scripted([2, 4, 6]))).toEqual({ question: 'What is 4 × 6?', answer: 24 });
  });

  it('always asks a well-formed question with a matching answer', () => {
    for (let i = 0; i < 300; i += 1) {
      const { question, answer } = makeChallenge();
      const [, a, op, b] = /^What is (\d+) ([+\-×]) (\d+)\?$/.exec(question) ?? [];
      expect(op).toBeDefined();
      const expected = op === '+' ? Number(a) + Number(b) : op === '-' ? Number(a) - Number(b) : Number(a) * Number(b);
      expect(answer).toBe(expected);
      expect(answer).toBeGreaterThanOrEqual(0);
    }
  });
});
