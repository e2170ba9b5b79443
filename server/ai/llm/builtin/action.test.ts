// readAction over the action corpus: the verb, object, destination, adverbs, names, speech and
// questions a reader of English would find, the second person, and the bound on what is read.
import { beforeAll, describe, expect, it } from 'vitest';
import { ACTION_CORPUS, LONG_ACTIONS } from './action-corpus';
import { loadEnglish, MAX_READ_CHARS, readAction, type English } from './action';

let english: English;
beforeAll(async () => {
  english = await loadEnglish();
});

describe('readAction on the action corpus', () => {
  it('has at least 100 actions of every kind', () => {
    expect(ACTION_CORPUS.length).toBeGreaterThanOrEqual(100);
    const kinds = new Set(ACTION_CORPUS.map((c) => c.kind));
    expect(kinds.size).toBe(12);
    expect(LONG_ACTIONS.every((a) => a.split(/\s+/).length >= 60)).toBe(true);
  });

  it.each(ACTION_CORPUS.map((c) => [c.action, c] as const))('%s', (_action, { action, expect: want }) => {
    const reading = readAction(english, action);
    const main = reading.main;
    const got = {
      verb: main.verb,
      object: main.object,
      objectHead: main.objectHead,
      destination: main.destination,
      adverbs: main.adverbs,
      clause: reading.clause,
      clauses: reading.clauses.length,
      question: reading.question,
      speech: reading.speech,
      names: reading.names,
    };
    const { things, ...fields } = want;
    expect(got).toMatchObject(fields);
    for (const thing of things ?? []) expect(reading.things).toContain(thing);
    // Whatever the action, the reading never makes an adverb, a verb or a clause its object.
    for (const c of reading.clauses) {
      expect(c.object).not.toMatch(/\b(into|onto|towards|toward|with|why|where|what|who)\b/i);
      expect(c.object).not.toMatch(/ly$/);
      if (c.object) expect(c.verb.split(' ')).not.toContain(c.object.split(' ').at(-1));
      expect(c.text).toMatch(/^[^A-Z]|^[A-Z][a-z]+ |^[A-Z]{2}|^"/);
    }
    expect(reading.clause.split(/\s+/).length).toBeLessThanOrEqual(31);
    expect(reading.clause).not.toMatch(/[.!?,;:]$/);
  });
});

describe('the issue’s examples', () => {
  it('reads "I look around carefully." without taking the adverb for an object', () => {
    const reading = readAction(english, 'I look around carefully.');
    expect(reading.main).toMatchObject({ verb: 'look around', object: '', adverbs: ['carefully'] });
    expect(reading.clause).toBe('you look around carefully');
  });

  it('reads two clauses, keeping the prepositional phrases out of the object', () => {
    const reading = readAction(english, 'I quietly slip the letter into my coat and walk towards the old church.');
    expect(reading.clauses.map((c) => [c.verb, c.object, c.destination])).toEqual([
      ['slip', 'the letter', 'into your coat'],
      ['walk', '', 'towards the old church'],
    ]);
    expect(reading.clauses[0]).toMatchObject({
      objectHead: 'letter',
      adverbs: ['quietly'],
      text: 'you quietly slip the letter into your coat',
    });
    expect(reading.main).toBe(reading.clauses[1]);
    expect(reading.main.text).toBe('you walk towards the old church');
    expect(reading.clause).toBe('you quietly slip the letter into your coat and walk towards the old church');
    expect(reading.things).toEqual(['letter', 'coat', 'church']);
  });
});

describe('second person', () => {
  it.each([
    ['I walk towards the church', 'you walk towards the church'],
    ['I put my coat on', 'you put your coat on'],
    ["I'm lost and I was scared", "you're lost and you were scared"],
    ['I am the captain of this ship', 'you are the captain of this ship'],
    ['I give the book to Mara, not to me', 'you give the book to Mara, not to you'],
    ['I steady myself. The ring is mine.', 'you steady yourself. The ring is yours'],
    ['We raise our glasses to us', 'you raise your glasses to you'],
    ['open the door', 'you open the door'],
    ['Run!', 'you run'],
    ['She pulls her hood up', 'you pull your hood up'],
    ['I enter the mine', 'you enter the mine'],
  ])('%s → %s', (action, clause) => {
    expect(readAction(english, action).clause).toBe(clause);
  });

  it('never touches words inside quotes', () => {
    const reading = readAction(english, 'I say "I will find my brother, and you will help me" to the old man');
    expect(reading.clause).toBe('you say "I will find my brother, and you will help me" to the old man');
    expect(reading.speech).toBe('I will find my brother, and you will help me');
    expect(reading.main).toMatchObject({ verb: 'say', object: '', destination: 'to the old man' });
  });

  it('keeps names as written', () => {
    const reading = readAction(english, 'I show the Queen of Hearts my ticket to Avalon');
    expect(reading.names).toEqual(expect.arrayContaining(['Queen', 'Hearts', 'Avalon']));
    expect(reading.clause).toContain('Queen of Hearts');
  });
});

describe('bounded work', () => {
  it(`reads only the first ${MAX_READ_CHARS} characters, cut at a word`, () => {
    const tail = ' and then I dance with the ZEBRAFISH';
    const action = `I walk ${'very '.repeat(120)}slowly towards the gate${tail.repeat(3000)}`;
    const reading = readAction(english, action);
    expect(JSON.stringify(reading)).not.toMatch(/ZEBRAFISH|zebrafish/);
    expect(reading.clause.split(/\s+/).length).toBeLessThanOrEqual(31);
  });

  // How fast is bench:narrator's to say (tests assert no wall-clock time); this holds the shape.
  it('reads hostile input into one bounded reading', () => {
    for (const action of [
      '('.repeat(5000),
      '"'.repeat(5000),
      'a'.repeat(100_000),
      `${'I and '.repeat(3000)}`,
      '?!.,;'.repeat(2000),
      '',
    ]) {
      const reading = readAction(english, action);
      expect(reading.clauses.length).toBeGreaterThanOrEqual(1);
      expect(reading.clause.length).toBeLessThanOrEqual(MAX_READ_CHARS + 20);
    }
  });
});
