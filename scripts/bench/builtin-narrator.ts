// The offline demo narrator's own cost, the first part of `npm run bench:narrator`: what
// LLM_PROVIDER=builtin spends on one reply in the server's process. It times the provider's
// generate() (genre, reading the action as English, composing the reply; no pacing delay) over the
// genre corpus's premises × the action corpus × the three narrative styles, after a warm-up, and
// prints p50, p99 and the slowest reply from the benchmarks' one stats module. The English library
// is loaded on the first turn, so its load time and the resident memory it adds are printed apart,
// and so is a story's first reply, which also reads the premise (once per story).
// Knobs: BENCH_BUILTIN_REPLIES (3000).
import { GENRE_CORPUS } from '../../server/ai/genre/genre-corpus';
import { createBuiltinNarrator } from '../../server/ai/llm/builtin';
import { ACTION_CORPUS } from '../../server/ai/llm/builtin/action-corpus';
import { loadEnglish, readAction } from '../../server/ai/llm/builtin/action';
import { composeRequest } from '../../server/ai/llm/builtin/test-helpers';
import type { TurnRecord } from '../../server/ai/llm/types';
import { NARRATIVE_STYLES, LANGUAGE_STYLES } from '../../shared/constants';
import { DEFAULT_PREFERENCES } from '../../shared/schemas/preferences';
import { formatMs } from './lib/report';
import { maxOf, percentile } from './lib/stats';

const REPLIES = Number(process.env.BENCH_BUILTIN_REPLIES ?? 3000);
/**
 * Openings put before the corpus's actions so that every reply reads an action it has not read
 * before, as a real turn does (the narrator caches its readings of the premise and of the recent
 * actions, which a real story repeats from turn to turn; 123 actions alone would all be cache hits).
 */
const LEADS = ['', 'Then ', 'Slowly, ', 'Without a word, ', 'At last ', 'Once more ', 'Quickly, ', 'Still shaking, '];
const TIMES = ['', ' at once', ' again', ' for a while', ' before dawn'];

export async function benchBuiltinNarrator(): Promise<void> {
  const rssBefore = process.memoryUsage().rss;
  const loadStarted = performance.now();
  const english = await loadEnglish();
  const loadMs = performance.now() - loadStarted;
  const firstStarted = performance.now();
  readAction(english, 'I look around carefully.');
  const firstReadMs = performance.now() - firstStarted;
  const loadedRss = process.memoryUsage().rss - rssBefore;

  const provider = createBuiltinNarrator({ builtinWordDelayMs: 0 });
  const premises = GENRE_CORPUS.map((entry) => entry.premise);
  const actions = ACTION_CORPUS.map((entry) => entry.action);
  const times: number[] = [];
  const words: number[] = [];
  for (let i = 0; i < REPLIES + 200; i += 1) {
    const premise = premises[i % premises.length];
    const lead = LEADS[Math.floor(i / actions.length) % LEADS.length];
    const tail = TIMES[Math.floor(i / (actions.length * LEADS.length)) % TIMES.length];
    const base = actions[i % actions.length];
    const action = `${lead}${lead ? base.charAt(0).toLowerCase() + base.slice(1) : base}`.replace(
      /([.!?]*)$/,
      `${tail}$1`,
    );
    const recent: TurnRecord[] = [
      { role: 'user', content: actions[(i + 7) % actions.length] },
      { role: 'assistant', content: 'The street is quiet for a moment, then not.' },
    ];
    const request = composeRequest({
      storyId: 1 + (i % 50),
      turn: 1 + (i % 300),
      attempt: i % 3,
      premise,
      action,
      recent,
      preferences: {
        ...DEFAULT_PREFERENCES,
        narrativeStyle: NARRATIVE_STYLES[i % NARRATIVE_STYLES.length],
        languageStyle: LANGUAGE_STYLES[Math.floor(i / 3) % LANGUAGE_STYLES.length],
      },
    });
    const started = performance.now();
    const { text } = await provider.generate(request);
    const elapsed = performance.now() - started;
    if (i >= 200) {
      times.push(elapsed);
      words.push(text.split(/\s+/).length);
    }
  }
  // A story's first reply also reads its premise (once per story: the reading is cached after).
  const openings: number[] = [];
  const SETTINGS = ['', 'Tonight, ', 'This winter, ', 'Years later, ', 'At dawn, ', 'In the end, '];
  for (let i = 0; i < Math.min(REPLIES, premises.length * SETTINGS.length); i += 1) {
    const base = premises[i % premises.length];
    const lead = SETTINGS[Math.floor(i / premises.length) % SETTINGS.length];
    const premise = lead ? `${lead}${base.charAt(0).toLowerCase()}${base.slice(1)}` : `${base} `;
    const request = composeRequest({ storyId: 10_000 + i, turn: 0, attempt: 0, premise, action: premise });
    const started = performance.now();
    await provider.generate(request);
    openings.push(performance.now() - started);
  }
  console.log(
    `builtin narrator: ${times.length} replies after 200 warm-up ones, each reading an action it has not read before (${premises.length} premises; ${actions.length} actions with ${LEADS.length * TIMES.length} openings and endings; 3 narrative and 3 language styles)`,
  );
  console.log(
    `  time per reply: p50 ${formatMs(percentile(times, 50), 2)}, p99 ${formatMs(percentile(times, 99), 2)}, slowest ${formatMs(maxOf(times), 2)}; ${percentile(words, 50)} words at p50`,
  );
  console.log(
    `  a story's first reply, reading a premise it has not read before (${openings.length}): p50 ${formatMs(percentile(openings, 50), 2)}, p99 ${formatMs(percentile(openings, 99), 2)}, slowest ${formatMs(maxOf(openings), 2)}`,
  );
  console.log(
    `  English library (compromise), loaded on the first turn: ${formatMs(loadMs, 0)} to load, first reading ${formatMs(firstReadMs, 1)}, +${(loadedRss / 1024 / 1024).toFixed(0)} MB resident`,
  );
}
