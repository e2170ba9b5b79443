// bench:abuse's hostile story cards: a story holding bench:cards' hostile lore (500 always-on
// recursive cards of 8,000 characters of dots, which every turn must cut to fit and whose sent ones
// are scanned for the other cards' keys, and 500 sticky keyed cards, at most the 20
// regular-expression keys a story may hold), imported as one Taleweaver cards file, then actions
// naming keyed cards, one at a time, each as the browser sends it (SSE).
import { CARDS_FILE_FORMAT, CARDS_FILE_VERSION } from '../../../shared/schemas/story-cards';
import { PREMISE } from './abuse-files';
import { spread, statusCounts, type Answer } from './abuse-harness';
import { sendAction, startStory, type Player } from './abuse-player';
import { hostileLore } from './card-story';
import { formatMs } from './report';

const ms = (v: number) => formatMs(v, 0);

/** Sets the story up (unwatched); answers the hostile work: the actions, timed one by one. */
export async function prepareHostileCards(
  player: Player,
  quick: boolean,
  note: (line: string) => void,
): Promise<() => Promise<string>> {
  const started = await startStory(player, PREMISE);
  const storyId = started.storyId;
  if (storyId === null) throw new Error(`story start answered ${started.answer.status}: ${started.answer.text}`);
  const lore = hostileLore(1, false);
  const file = JSON.stringify({
    format: CARDS_FILE_FORMAT,
    version: CARDS_FILE_VERSION,
    cards: lore.map((card) => card.values),
  });
  const imported = await player.http.call(`/api/story/${storyId}/cards/import`, {
    cookie: player.cookie,
    json: file,
    keepBody: true,
    timeoutMs: 120_000,
  });
  const count = imported.status === 201 ? (JSON.parse(imported.text) as { imported: number }).imported : 0;
  if (count !== lore.length)
    throw new Error(`the cards import answered ${imported.status} (${count} cards): ${imported.text.slice(0, 200)}`);
  note(`${count} cards imported (${(file.length / 1024 / 1024).toFixed(1)} MB) in ${ms(imported.ms)}`);
  const named = lore.filter((card) => card.mentions.length > 0);
  const actions = Array.from({ length: quick ? 3 : 10 }, (_, i) => {
    const [a, b] = [named[(i * 37) % named.length], named[(i * 53 + 11) % named.length]];
    return `I ask ${a.mentions[0]} about ${b.mentions[0]}.`;
  });
  return async () => {
    const answers: Answer[] = [];
    let done = 0;
    for (const action of actions) {
      const { answer, ok } = await sendAction(player, storyId, action);
      answers.push(answer);
      if (ok) done += 1;
    }
    const s = spread(answers.map((a) => a.ms));
    return (
      `${done} of ${actions.length} actions done (${statusCounts(answers)}); the attacker's requests: ` +
      `first ${ms(answers[0].ms)}, p50 ${ms(s.p50)}, max ${ms(s.max)}`
    );
  };
}
