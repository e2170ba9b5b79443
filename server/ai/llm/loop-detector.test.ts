// The loop detector on real-shaped text: seeded transcripts of the varied prose the fake providers
// write (server/test/varied-prose.ts), five earlier replies and a new one. Looping replies, built
// from them the ways models loop (a retold reply, the same opening, a span said over and over back
// to back, a sentence said again and again), are caught; varied replies, with a recurring name and
// place and a short emphatic repeat ("No, no, no!"), are left alone. The rates are asserted over 200
// transcripts of each kind; the corpus is exported for bench:loop.
import { describe, expect, it } from 'vitest';
import { proseWriter, seededRandom } from '@server/test/varied-prose';
import { DEFAULT_LOOP_THRESHOLDS, detectLoop, loopSeverity, loopWords, type LoopVerdict } from './loop-detector';
import { loopCorpus, LOOP_KINDS, VARIED_KINDS } from './loop-corpus';

const rate = (verdicts: LoopVerdict[]) => verdicts.filter((v) => v.looping).length / verdicts.length;

describe('the loop detector on seeded transcripts', () => {
  const corpus = loopCorpus(200);

  it.each(LOOP_KINDS)('catches a %s', (kind) => {
    const verdicts = corpus.looping[kind].map((t) => detectLoop(t.reply, t.history));
    expect(verdicts.length).toBe(200);
    expect(rate(verdicts)).toBeGreaterThanOrEqual(0.95);
  });

  it.each(VARIED_KINDS)('leaves %s alone', (kind) => {
    const verdicts = corpus.varied[kind].map((t) => detectLoop(t.reply, t.history));
    expect(verdicts.length).toBe(200);
    expect(rate(verdicts)).toBeLessThanOrEqual(0.03);
  });
});

describe('each sign', () => {
  const writer = proseWriter(7);
  const history = Array.from({ length: 5 }, () => writer.reply());

  it('measures the share of 4-grams already used, and names it', () => {
    const fresh = detectLoop(writer.reply(), history);
    expect(fresh.ngramShare).toBeLessThan(DEFAULT_LOOP_THRESHOLDS.ngramShare);
    const retold = detectLoop(history[2], history);
    expect(retold.ngramShare).toBe(1);
    expect(retold.reasons[0]).toBe(
      'It retold the earlier replies: 100% of its phrases were already used. Tell what happens next in new words.',
    );
    // Only the last five replies count: the sixth is forgotten.
    const others = ['Rain.', ...history.slice(0, 2), ...history.slice(3)];
    const forgotten = detectLoop(history[2], [...others, history[2]]).ngramShare;
    expect(forgotten).toBe(detectLoop(history[2], others).ngramShare);
    expect(forgotten).toBeLessThan(DEFAULT_LOOP_THRESHOLDS.ngramShare);
  });

  it('finds an opening repeated from any of the last replies, by its first words', () => {
    const opening = history[3].split(/(?<=\.)\s/)[0];
    const verdict = detectLoop(`${opening} ${writer.reply()}`, history);
    expect(verdict.repeatedOpening).toBe(3);
    expect(verdict.reasons.some((r) => r.startsWith('It opened like an earlier reply ("'))).toBe(true);
    // Seven equal first words of a longer first sentence are not an opening repeated.
    const seven = loopWords(history[0]).slice(0, 7).join(' ');
    expect(detectLoop(`${seven} zebra crossing at noon.`, history).repeatedOpening).toBeNull();
  });

  it('finds a span said over and over back to back, but not a short emphatic repeat', () => {
    expect(detectLoop('You stop. ' + 'let '.repeat(14) + 'the door open.', []).cycle).toEqual({
      span: 'let',
      repeats: 14,
    });
    expect(detectLoop('The bells ring and ring and ring and ring across the bay.', []).cycle).toBeNull();
    expect(detectLoop('"No, no, no!" she cries, and runs.', []).cycle).toBeNull();
    const phrase = detectLoop(
      'She says: the tide is turning, the tide is turning, the tide is turning. Then quiet.',
      [],
    );
    expect(phrase.cycle).toEqual({ span: 'the tide is turning', repeats: 3 });
    expect(phrase.reasons).toEqual(['It repeated "the tide is turning" 3 times. Say it once.']);
  });

  it('finds a sentence said three times apart', () => {
    const line = 'The lantern sways above the quiet archway.';
    const reply = `${line} A gull cries. ${line} The tide comes in over the stones. ${line} What do you do?`;
    expect(detectLoop(reply, []).cycle).toEqual({ span: line, repeats: 3 });
    expect(detectLoop(`${line} A gull cries. ${line}`, []).cycle).toBeNull();
  });

  it('finds words in scripts written without spaces, so a retold Japanese reply is caught too', () => {
    const reply = '猫が窓の外を静かに見ている。雨が降り始めて、古い橋の上に灯りがともる。';
    expect(loopWords(reply).length).toBeGreaterThan(10);
    expect(detectLoop(reply, ['夜の市場は賑やかだ。', reply]).ngramShare).toBe(1);
    expect(detectLoop(reply, ['夜の市場は賑やかだ。']).looping).toBe(false);
  });

  it('reads at most 2,000 words of a text, and answers in bounded time for a long one', () => {
    const random = seededRandom(3);
    const noise = Array.from({ length: 50_000 }, () => `w${Math.floor(random() * 1e6)}`).join(' ');
    expect(loopWords(noise)).toHaveLength(2000);
    expect(detectLoop(noise, [noise, noise]).ngramShare).toBe(1);
  });

  it('ranks a verdict with fewer signs, then fewer phrases used, as the better reply', () => {
    const retold = detectLoop(history[1], history);
    const cycled = detectLoop(`${writer.reply()} ${'again '.repeat(20)}`, history);
    const fresh = detectLoop(writer.reply(), history);
    expect(loopSeverity(fresh)).toBeLessThan(loopSeverity(cycled));
    expect(loopSeverity(cycled)).toBeLessThan(loopSeverity(retold));
  });
});
