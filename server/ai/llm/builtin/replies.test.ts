// The offline narrator's replies to every action of the corpus, in several genres and turns, read
// by the reply rules (./reply-checks.ts) and by a prose linter from npm (retext: repeated words,
// a/an): the faults once found in its replies must not come back. A few known-bad strings prove each rule fires.
import { retext } from 'retext';
import retextIndefiniteArticle from 'retext-indefinite-article';
import retextRepeatedWords from 'retext-repeated-words';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_RATINGS, LANGUAGE_STYLES, NARRATIVE_STYLES } from '@shared/constants';
import { ACTION_CORPUS } from './action-corpus';
import { loadEnglish, type English } from './action';
import type { TurnRecord } from '../types';
import { composeReply } from './narrator';
import { createReplyChecker, describeFaults, type ReplyChecker, type ReplyRule } from './reply-checks';

const PREMISES: Array<[genre: string, premise: string]> = [
  ['fantasy', 'A dragon has slept under our village for a hundred years and this morning it woke up'],
  ['mystery', 'A detective in 1920s London investigates a locked-room murder at a country house'],
  ['romance', 'I open a bakery in Paris and fall for the florist next door'],
  ['scifi', 'The last engineer aboard a failing generation ship wakes the crew one by one'],
  ['western', 'A bounty hunter rides into a dusty frontier town where the sheriff has vanished'],
  ['horror', 'I inherit a farmhouse where something scratches inside the walls every night'],
  ['postapocalyptic', 'Twenty years after the bombs I trade clean water for bullets in the wasteland'],
  ['comedy', "My neighbour's goat has eaten my wedding invitations and the wedding is tomorrow"],
  ['historical', 'In 1815 I serve as a courier for the Duke of Wellington before Waterloo'],
  ['thriller', 'I am a spy who must get a stolen drive out of Berlin before the border closes'],
];
const TURNS = [1, 2, 7];
/** Every narrative style, language style and rating meets every genre across the turns. */
const STYLES = NARRATIVE_STYLES.flatMap((narrativeStyle) =>
  LANGUAGE_STYLES.map((languageStyle, i) => ({ narrativeStyle, languageStyle, contentRating: CONTENT_RATINGS[i] })),
);

const linter = retext().use(retextRepeatedWords).use(retextIndefiniteArticle);
function lint(text: string): string[] {
  return linter.processSync(text).messages.map((m) => `${m.ruleId ?? m.source}: ${m.reason}`);
}

let english: English;
let checker: ReplyChecker;
beforeAll(async () => {
  english = await loadEnglish();
  checker = createReplyChecker(english);
});

describe('replies to the action corpus', () => {
  it.each(ACTION_CORPUS.map((c, i) => [c.action, i] as const))('%s', (action, i) => {
    const problems: string[] = [];
    // The two corpus actions before it as the story's last turns, so what continuity brings back
    // from them (things taken, names, places) is held to the same rules.
    const recent: TurnRecord[] = [1, 2].flatMap((back) => [
      {
        role: 'user' as const,
        content: ACTION_CORPUS[(i + ACTION_CORPUS.length - back) % ACTION_CORPUS.length].action,
      },
      { role: 'assistant' as const, content: 'The moment passes.' },
    ]);
    PREMISES.forEach(([genre, premise], g) =>
      TURNS.forEach((turn, t) => {
        const preferences = STYLES[(g * TURNS.length + t) % STYLES.length];
        const seed = { storyId: 11 + turn, turn, attempt: 0, premise, action, preferences, recent };
        const text = composeReply(seed, english);
        const faults = [describeFaults(checker.check(text)), ...lint(text)].filter(Boolean);
        if (faults.length > 0)
          problems.push(
            `[${genre}, turn ${turn}, ${Object.values(preferences).join(', ')}] action “${action}”:\n${faults.join('\n')}\n--- ${text}`,
          );
      }),
    );
    expect(problems, problems.join('\n\n')).toEqual([]);
  });
});

describe('the reply rules fire on known-bad text', () => {
  it.each<[string, ReplyRule]>([
    ['As the carefully gives way to your will, the moment passes.', 'determiner-before-adverb'],
    ['Whatever you expected when you chose to look the carefully, this was not it.', 'determiner-before-adverb'],
    ['As the grabbed seems to resist you, you hold on.', 'determiner-before-verb'],
    ['The letter into your coat seems to resist you.', 'clause-as-noun'],
    ['As the letter into your coat gives way to your will, you breathe.', 'clause-as-noun'],
    ['As the where the key is gives way to your will, you wait.', 'clause-as-noun'],
    ['The you walk seems to resist you.', 'clause-as-noun'],
    ['I open the door and my heart races.', 'first-person'],
  ])('%s → %s', (text, rule) => {
    expect(checker.check(text).map((f) => f.rule)).toContain(rule);
  });

  it('finds wrong articles and repeated words with retext', () => {
    expect(lint('You eat a apple.').join()).toMatch(/an/);
    expect(lint('You open the the door.').join()).toMatch(/the/);
  });

  it('passes good English, including words that are nouns and verbs', () => {
    for (const text of [
      'You walk into the building and see a ring on the table.',
      'The only way out is a strangely quiet street past the most ancient gate.',
      'The fallen tree blocks the road. The singing stops. A hidden door opens.',
      'You say, "I will find my brother." The guard nods.',
      'The road into the hills is long.',
    ]) {
      expect(checker.check(text)).toEqual([]);
      expect(lint(text)).toEqual([]);
    }
  });
});
