// A summarising call's answer read apart: the memory, and the story bible's facts after it, with
// hostile and malformed answers yielding no facts (and one named problem) but the memory intact.
import { describe, expect, it } from 'vitest';
import { FACTS_PER_FOLD_MAX, factsSection, readSummaryAnswer } from './summary-answer';

const MEMORY = 'You named your horse Bramble at the mill. Maren, your sister, waits in the capital.';

describe('readSummaryAnswer', () => {
  it('reads the memory and the facts after the FACTS: line', () => {
    const answer = readSummaryAnswer(
      `${MEMORY}\n\nFACTS:\n[{"entity":"your horse","attribute":"name","value":"Bramble","turn":3},{"entity":"your sister","attribute":"name","value":"Maren","turn":"5"}]`,
    );
    expect(answer).toEqual({
      summary: MEMORY,
      facts: [
        { entity: 'your horse', attribute: 'name', value: 'Bramble', turn: 3 },
        { entity: 'your sister', attribute: 'name', value: 'Maren', turn: 5 },
      ],
      problem: null,
    });
  });

  it('takes the facts from a code fence, a bold or heading marker, or an object holding them', () => {
    const fenced = readSummaryAnswer(
      `${MEMORY}\n**FACTS:**\n\`\`\`json\n[{"entity":"the ship","attribute":"name","value":"Saltwren"}]\n\`\`\`\n`,
    );
    expect(fenced.summary).toBe(MEMORY);
    expect(fenced.facts).toEqual([{ entity: 'the ship', attribute: 'name', value: 'Saltwren', turn: null }]);
    const wrapped = readSummaryAnswer(
      `${MEMORY}\n## Facts\n{"facts": [{"entity":"you","attribute":"name","value":"Ash"}]}`,
    );
    expect(wrapped.facts).toEqual([{ entity: 'you', attribute: 'name', value: 'Ash', turn: null }]);
  });

  it('folds the memory without facts when the facts are not valid JSON, and says why once', () => {
    expect(readSummaryAnswer(`${MEMORY}\nFACTS:\n[{"entity": "your horse", "attribute": "name",`)).toEqual({
      summary: MEMORY,
      facts: [],
      problem: 'the facts are not valid JSON',
    });
    expect(readSummaryAnswer(`${MEMORY}\nFACTS: "the horse is Bramble"`).problem).toBe(
      'the facts are not a JSON array',
    );
    expect(readSummaryAnswer(MEMORY)).toEqual({
      summary: MEMORY,
      facts: [],
      problem: 'the answer has no facts section',
    });
  });

  it('skips items that are not facts, cuts long fields and keeps at most a fold’s worth', () => {
    const items = [
      null,
      'Bramble',
      { entity: 'your horse', attribute: 'name' },
      { entity: { toString: 'x' }, attribute: 'name', value: 'Bramble' },
      { entity: '  ', attribute: 'name', value: 'Bramble' },
      { entity: '"your dog"', attribute: 'name', value: 'x'.repeat(5000), turn: -4, __proto__: { polluted: true } },
      ...Array.from({ length: 100 }, (_, i) => ({ entity: `thing ${i}`, attribute: 'colour', value: 'red', turn: i })),
    ];
    const answer = readSummaryAnswer(`${MEMORY}\nFACTS:\n${JSON.stringify(items)}`);
    expect(answer.problem).toBeNull();
    expect(answer.facts).toHaveLength(FACTS_PER_FOLD_MAX);
    expect(answer.facts[0]).toEqual({ entity: 'your dog', attribute: 'name', value: 'x'.repeat(300), turn: null });
    expect(answer.facts[1]).toEqual({ entity: 'thing 0', attribute: 'colour', value: 'red', turn: 0 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads back what factsSection writes', () => {
    const facts = [{ entity: 'your key', attribute: 'inscription', value: '4471', turn: 8 }];
    expect(readSummaryAnswer(`${MEMORY}\n\n${factsSection(facts)}`)).toEqual({ summary: MEMORY, facts, problem: null });
  });
});
