// What the memory bank indexes: terms in any script, stemmed where Latin, stop words and
// possessives left out; passages of whole sentences up to about 60 words, a run-on sentence cut by
// words, and the term counts BM25 reads.
import { describe, expect, it } from 'vitest';
import { MAX_PASSAGES_PER_MESSAGE, PASSAGE_WORDS, passagesOf } from './passages';
import { proseWriter, seededRandom } from '@server/test/varied-prose';
import { wordSegments } from '@server/kernel/words';
import { termsOf, wordsOf } from './terms';

describe('termsOf', () => {
  it('stems English words so that a plural or a tense finds the other', () => {
    expect(termsOf('My horses')).toEqual(termsOf('my horse'));
    expect(termsOf('He called')).toEqual(termsOf('calling'));
  });

  it("leaves out stop words, single letters and the possessive 's", () => {
    expect(wordsOf("The captain's lantern is on the table, and I lift it").map((w) => w.word)).toEqual([
      'captain',
      'lantern',
      'table',
      'lift',
    ]);
  });

  it('folds case and width, keeps numbers, and finds words in scripts without spaces', () => {
    expect(termsOf('ＢＲＡＭＢＬＥ')).toEqual(termsOf('bramble'));
    expect(termsOf('Room 42')).toContain('42');
    const japanese = termsOf('私の馬の名前はハヤテです');
    expect(japanese).toContain('馬');
    expect(japanese.length).toBeGreaterThan(3);
    expect(termsOf('Ἀθῆναι Москва')).toEqual(['ἀθῆναι', 'москва']);
  });

  it('ignores punctuation and over-long runs of letters', () => {
    expect(termsOf('!!! … ---')).toEqual([]);
    expect(termsOf(`${'a'.repeat(41)} gate`)).toEqual(['gate']);
  });
});

describe('wordSegments', () => {
  const segmenter = new Intl.Segmenter('en', { granularity: 'word' });
  const segmented = (text: string) => [...segmenter.segment(text)].filter((s) => s.isWordLike).map((s) => s.segment);
  const found = (text: string) => [...wordSegments(text)];

  it('finds the words Intl.Segmenter finds in spaced scripts, without it', () => {
    const edges = [
      "don't won't I'm the captain's horses' o'clock rock'n'roll don’t ’tis",
      'e.g. i.e. U.S.A. a.m. Mr. Smith. end. Start ok... a..b',
      "3,000 1.5 3.14.15 1,2,3 10;20 4'5 1⁄2 time 10:30 ratio 3:1 S:t a:b x·y col·lecció",
      'well-known — dash–en … “double” ‘single’ #tag @name $100 50% 3×4 ½ ² ① π r² ∞',
      'café naïve Zoë straße Ĳssel Москва Ἀθῆναι العربية ٣٫٥ עברית 한국어 텍스트 हिन्दी भाषा',
      'hello_world a1b2 21st user@example.com https://example.com/path?q=1 www.test.org 😀 👨‍👩‍👧 ＢＲＡＭＢＬＥ',
    ];
    for (const text of edges) expect(found(text)).toEqual(segmented(text));
    const writer = proseWriter(3);
    for (let i = 0; i < 300; i += 1) {
      const text = (i % 2 ? writer.reply() : writer.action()).toLowerCase();
      expect(found(text)).toEqual(segmented(text));
    }
    // Random strings of letters, digits and the punctuation that joins or parts words.
    const random = seededRandom(42);
    const pool = [...'abéжλ120.,;:\'’-   ·/!?()"Ⅻ٣٫@&—\n'];
    for (let i = 0; i < 5000; i += 1) {
      const text = Array.from(
        { length: 1 + Math.floor(random() * 12) },
        () => pool[Math.floor(random() * pool.length)],
      ).join('');
      expect(found(text), JSON.stringify(text)).toEqual(segmented(text));
    }
  });

  it('leaves scripts written without spaces to the segmenter', () => {
    const text = '私の馬の名前はハヤテです ม้าของฉัน';
    expect(found(text)).toEqual(segmented(text));
    expect(found(text).length).toBeGreaterThan(3);
  });
});

describe('passagesOf', () => {
  const sentence = (i: number) => `Sentence ${i} tells of the lighthouse keeper and her brass telescope.`;

  it('gathers whole sentences into passages of at most about 60 words', () => {
    const text = Array.from({ length: 20 }, (_, i) => sentence(i)).join(' ');
    const passages = passagesOf(text);
    expect(passages.length).toBeGreaterThan(2);
    for (const p of passages) {
      expect(p.text.split(/\s+/).length).toBeLessThanOrEqual(PASSAGE_WORDS);
      expect(p.text).toMatch(/^Sentence \d+ .*telescope\.$/);
    }
    expect(passages.map((p) => p.text).join(' ')).toBe(text);
    expect(passages.map((p) => p.part)).toEqual(passages.map((_, i) => i));
  });

  it('cuts a sentence longer than a passage by words', () => {
    const runOn = Array.from({ length: 250 }, (_, i) => `w${i}`).join(' ');
    const passages = passagesOf(runOn);
    expect(passages.map((p) => p.text.split(' ').length)).toEqual([60, 60, 60, 60, 10]);
  });

  it("counts each passage's terms, and its length with repeats", () => {
    const [passage] = passagesOf('The horse, the horse! Bramble the horse runs.');
    expect(passage.terms).toEqual(termsOf('horse bramble runs').filter((t, i, all) => all.indexOf(t) === i));
    expect(passage.counts).toEqual([3, 1, 1]);
    expect(passage.length).toBe(5);
  });

  it('has no passage for a text without terms, and a bounded number for any text', () => {
    expect(passagesOf('… !!')).toEqual([]);
    const huge = Array.from({ length: 20_000 }, (_, i) => `Word${i} ends here.`).join(' ');
    expect(passagesOf(huge).length).toBe(MAX_PASSAGES_PER_MESSAGE);
  });
});
