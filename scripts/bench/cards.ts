// `npm run bench:cards`: what story cards add to a turn's prompt build. Three stories of
// 1,000 turns (--story-turns) on one embedded database (PGlite in memory, migrated as the app does),
// with 0, 100 and 1,000 story cards made up from one seed (lib/card-story.ts: names, 1-3 keys, some
// regular expressions and secondary keys, contents of 200-1,500 characters, ~5 % always on, some
// sticky, cooling down, delayed, disabled or recursive), and actions and replies in which the same
// cards come up in all three. And two hostile stories of 200 turns: 500 keyed cards (sticky) and 500
// always-on recursive cards of 8,000 characters of dots in two sentences, which must be cut to fit
// and scanned for the others' keys; the second also with the longest history a turn reads (200
// replies, each recording all 500 keyed cards on). Then turn after turn, the stories side by side
// (round robin, the order rotated every turn, since the machine is noisy), each turn as the app
// plays it: the action appended, the window read (not timed), then the timed part, from having the
// window to the assembled prompt and its record: cardBudget + chooseTurnCards (its reads of the card
// heads, the history and the contents on the database) + assembleTurnPrompt + contextRecord, as
// server/domains/story/turn-prompt.ts buildTurnPrompt runs them for generate(); then the reply and
// the record stored and the memory folded when the app would fold it (planFold; the summary itself
// made up here), so the window stays as a long story's does; and the reply's record kept in the
// cards' cache as the turn service keeps it, whence the next turns read their history when they
// can. Prints the prompt build's p50 / p99 / mean per story, what 100 and 1,000 cards add to it
// against none (the goal: at most 5 ms at p99 with 1,000; the hostile stories': the whole build in
// 5 ms at p99), where the time goes, how
// many cards were sent, and the size of the context record (JSON bytes, and pg_column_size of the
// stored jsonb and row). Asserts nothing.
//
//   npm run bench:cards
//   npm run bench:cards -- --turns 500 --seed 7
//   npm run bench:cards -- --hostile-only --turns 20 --warmup 2    # the hostile stories alone
//
// Flags: --turns (200 measured turns per story), --warmup (30), --seed (1), --story-turns (1000),
// --hostile-only. The model's window is the app's default (LLM_CONTEXT_TOKENS,
// LLM_MAX_OUTPUT_TOKENS and LLM_CARD_SHARE are read from the environment as the app reads them).
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { computeBudget } from '../../server/ai/llm/context';
import { planFold, recentRoom, windowLimits } from '../../server/ai/llm/fold';
import { memoryBlock, narratorSystemPrompt, pinnedBlock } from '../../server/ai/llm/prompts';
import { loadTokenCounter } from '../../server/ai/llm/tokenizer';
import { openDatabase } from '../../server/db/client';
import { createRepositories, type Repositories } from '../../server/db/repositories';
import type { StoryRecord } from '../../server/db/repositories/stories';
import { createCardHeads, type CardHeads } from '../../server/domains/story/cards/card-heads';
import { buildTurnPrompt } from '../../server/domains/story/turn-prompt';
import { loadConfig } from '../../server/kernel/config';
import { DEFAULT_PREFERENCES } from '../../shared/schemas/preferences';
import { seededRandom } from '../../server/test/varied-prose';
import { hostileLore, makeLore, memoryText, planMentions, storyTexts, type LoreCard } from './lib/card-story';
import { formatAdded, formatMs } from './lib/report';
import { timedCardReads, type CardReads } from './lib/timed-card-reads';
import { maxOf, percentile } from './lib/stats';

const { values: args } = parseArgs({
  options: {
    turns: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '30' },
    seed: { type: 'string', default: '1' },
    'story-turns': { type: 'string', default: '1000' },
    'hostile-only': { type: 'boolean', default: false },
  },
});
const TURNS = Number(args.turns);
const WARMUP = Number(args.warmup);
const SEED = Number(args.seed);
const STORY_TURNS = Number(args['story-turns']);
const SIZES = args['hostile-only'] ? [] : [0, 100, 1000];
/** The goal: 1,000 cards add at most this much to a turn's prompt build at p99. */
const GOAL_ADDED_P99_MS = 5;
/** The hostile story's turns before the measured ones: their records are the history its sticky cards read (200 turns at most). */
const HOSTILE_STORY_TURNS = 200;
/** The hostile story's goal: its whole prompt build in at most this much at p99. */
const GOAL_HOSTILE_P99_MS = 5;
const PREMISE =
  'A cartographer hired by three rival houses maps the drowned city of Velmarra, where every street remembers a name';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', LLM_PROVIDER: 'builtin' });
const llm = config.llm;
const budget = computeBudget(llm.contextTokens, llm.maxOutputTokens);
const windowRead = windowLimits(budget);
const count = await loadTokenCounter();
const system = narratorSystemPrompt(DEFAULT_PREFERENCES);

/** The timed phases of one turn, in ms; the reads are the repositories' calls inside chooseTurnCards. */
interface TurnTimes {
  total: number;
  /** Of total, the time this thread was busy (event-loop utilisation): what other players' requests wait for; the rest is PGlite's thread. */
  busy: number;
  cardBudget: number;
  choose: number;
  heads: number;
  history: number;
  contents: number;
  assemble: number;
  record: number;
}

interface Run {
  size: number;
  /** As the tables name it. */
  label: string;
  hostile: boolean;
  /** The first turn played after the seeded ones. */
  firstTurn: number;
  story: StoryRecord;
  repos: Repositories;
  /** The turn service's cache of card heads, one per story here as in the app. */
  cardHeads: CardHeads;
  reads: CardReads;
  texts: Array<{ action: string; reply: string }>;
  times: TurnTimes[];
  sent: number[];
  sentHead: number[];
  keyed: number[];
  listed: number[];
  jsonBytes: number[];
  replyIds: number[];
  windowMessages: number[];
  promptTokens: number[];
  memoryRandom: () => number;
}

const database = await openDatabase({ kind: 'pglite-memory' });
await database.migrate();
const repos = createRepositories(database.db);
const user = await repos.users.insert({
  username: 'bench-cards',
  email: 'bench-cards@example.com',
  passwordHash: 'not-a-hash',
  isAdmin: false,
});

const allTurns = Math.max(STORY_TURNS, HOSTILE_STORY_TURNS) + WARMUP + TURNS;
const lore = makeLore(SEED, 1000);
const plans = planMentions(SEED, allTurns + 1, lore.length);
/** The hostile story's keyed cards come first: only they are mentioned. */
const HOSTILE_KEYED = hostileLore(SEED, false).filter((card) => !card.values.alwaysOn).length;

/** A reply's record as far as a later turn reads it (which cards were keyed and on); the seeded turns have no prompt. */
const SEEDED_RECORD = { blocks: [], promptTokens: 0, outputTokens: 0, windowTokens: 0, cardBudgetTokens: 0 };

/**
 * A story of `storyTurns` turns with `cards`, its texts from one plan of mentions: the lore's, or
 * the hostile story's (its keyed cards only). With `history`, each seeded reply keeps a record
 * that every keyed card was on and the mentioned ones keyed, as if all were sticky: the most a
 * turn's timing can have to read; otherwise only the played turns keep records.
 */
async function seedStory(size: number, index: number, hostile?: { cards: LoreCard[]; history: boolean }): Promise<Run> {
  const started = performance.now();
  const cards = hostile?.cards ?? lore.slice(0, size);
  const storyTurns = hostile ? HOSTILE_STORY_TURNS : STORY_TURNS;
  const history = hostile?.history ?? false;
  const storyPlans = hostile ? planMentions(SEED, allTurns + 1, HOSTILE_KEYED) : plans;
  const texts = storyTexts(hostile ? cards : lore, storyPlans, SEED * 7919 + index + 1);
  const start = Date.now() - (allTurns + 1) * 60_000;
  const { story: created } = await repos.stories.create({
    userId: user.id,
    premise: PREMISE,
    now: new Date(start),
    leaseUntil: new Date(start),
  });
  let ids: number[] = [];
  if (cards.length > 0) {
    const values = cards.map((card) => ({ ...card.values, tokens: count(card.values.content) }));
    const added = await repos.storyCards.add({ userId: user.id, storyId: created.id }, values, new Date(start), {
      maxCards: cards.length,
      quotas: {},
    });
    if (typeof added === 'string') throw new Error(`the cards were refused: ${added}`);
    ids = added.map((row) => row.id);
  }
  const keyedIds = ids.filter((_, i) => !cards[i].values.alwaysOn);
  for (let turn = 0; turn <= storyTurns; turn += 1) {
    const at = new Date(start + turn * 60_000);
    if (turn > 0) await repos.stories.appendAction(created.id, texts[turn].action, at);
    await repos.stories.saveReply({
      storyId: created.id,
      turn,
      content: texts[turn].reply,
      alternativeTo: null,
      usage: null,
      now: new Date(at.getTime() + 1000),
      context: history
        ? {
            keyed: [...storyPlans[turn].action, ...storyPlans[turn].reply].map((m) => keyedIds[m.card]),
            on: keyedIds,
            record: SEEDED_RECORD,
          }
        : null,
    });
  }
  await repos.stories.releaseLease(created.id);
  // As a turn reads it with its lease: the cards_version its cards left.
  const story = (await repos.stories.findOwned(created.id, user.id))!;
  console.log(
    `seeded the story with ${cards.length} cards: ${storyTurns} turns in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const reads = { heads: 0, history: 0, contents: 0 };
  return {
    size: cards.length,
    label: hostile ? `hostile${history ? `, ${HOSTILE_STORY_TURNS}-turn history` : ''}` : size.toLocaleString('en'),
    hostile: hostile !== undefined,
    firstTurn: storyTurns + 1,
    story,
    repos: timedCardReads(repos, reads),
    cardHeads: createCardHeads(timedCardReads(repos, reads)),
    reads,
    texts,
    times: [],
    sent: [],
    sentHead: [],
    keyed: [],
    listed: [],
    jsonBytes: [],
    replyIds: [],
    windowMessages: [],
    promptTokens: [],
    memoryRandom: seededRandom(SEED + index),
  };
}

/** One turn of `run`'s story as the app plays it; the prompt build is timed when `measure`. */
async function playTurn(run: Run, turn: number, measure: boolean): Promise<void> {
  const { story } = run;
  const text = run.texts[turn];
  const at = new Date(Date.now() - (allTurns - turn) * 60_000);
  const action = await repos.stories.appendAction(story.id, text.action, at);
  const window = await repos.stories.recentUnfolded(story.id, story.memoryThroughId, action.id, windowRead);
  const outputTokens = count(text.reply);
  run.reads.heads = run.reads.history = run.reads.contents = 0;

  // The timed part: from the window to the assembled prompt and its record (turn-prompt.ts, as generate() calls it).
  const elu = performance.eventLoopUtilization();
  const t0 = performance.now();
  const marks = { cardBudget: t0, cards: t0, recall: t0, assemble: t0 };
  const {
    prompt,
    cards,
    record: recordOf,
  } = await buildTurnPrompt(
    {
      repos: run.repos,
      cardHeads: run.cardHeads,
      budget,
      cardShare: llm.cardShare,
      // The cards alone: bench:recall times the memory bank.
      recallTokens: 0,
      count,
      system,
      story,
      action,
      window,
    },
    (phase) => (marks[phase] = performance.now()),
  );
  const [t1, t2, t3] = [marks.cardBudget, marks.cards, marks.assemble];
  const record = recordOf(outputTokens);
  const t4 = performance.now();
  const busy = performance.eventLoopUtilization(elu).active;

  const now = new Date(at.getTime() + 1000);
  const reply = await repos.stories.saveReply({
    storyId: story.id,
    turn: action.turn,
    content: text.reply,
    alternativeTo: null,
    usage: null,
    now,
    context: { keyed: cards.keyed, on: cards.on, record },
  });
  // As the turn service does: the next turns' sticky and cooldown read this record from the cards' cache.
  if (cards.timed) run.cardHeads.rememberRecord(reply.id, reply.version, { keyed: cards.keyed, on: cards.on });
  if (measure) {
    const sentHead = cards.blocks.head.filter((b) => b.included !== 'dropped').length;
    run.times.push({
      total: t4 - t0,
      busy,
      cardBudget: t1 - t0,
      choose: t2 - t1,
      heads: run.reads.heads,
      history: run.reads.history,
      contents: run.reads.contents,
      assemble: t3 - t2,
      record: t4 - t3,
    });
    run.sentHead.push(sentHead);
    run.sent.push(sentHead + cards.blocks.tail.filter((b) => b.included !== 'dropped').length);
    run.keyed.push(cards.keyed.length);
    run.listed.push(cards.blocks.head.length + cards.blocks.tail.length);
    run.jsonBytes.push(Buffer.byteLength(JSON.stringify(record)));
    run.replyIds.push(reply.id);
    run.windowMessages.push(window.messages.length);
    run.promptTokens.push(prompt.promptTokens);
  }

  // The memory fold the app would start after this reply (memory.maybeFold), applied at once with a made-up summary.
  const sent = window.messages
    .slice(prompt.droppedTurns)
    .map((m, i) => ({ id: m.id, role: m.role, tokens: prompt.turnTokens[i] }));
  const newest = [action, reply].map((m) => ({ id: m.id, role: m.role, tokens: count(m.content) }));
  const memoryTokens = story.memory ? count(memoryBlock(story.memory)) : 0;
  const room = recentRoom(budget, count(system), count(pinnedBlock(story.premise, story.notes)), memoryTokens);
  const target = planFold([...sent, ...newest], room, window.more || prompt.droppedTurns > 0);
  if (target !== null) {
    const memory = memoryText(run.memoryRandom, Math.floor(budget.memory * 3));
    const expected = { throughId: story.memoryThroughId, memory: story.memory };
    if (await repos.stories.applyFold(story.id, expected, target, memory, now)) {
      story.memoryThroughId = target;
      story.memory = memory;
    }
  }
}

const runs: Run[] = [];
for (const [index, size] of SIZES.entries()) runs.push(await seedStory(size, index));
for (const history of [false, true])
  runs.push(await seedStory(0, runs.length, { cards: hostileLore(SEED, history), history }));
console.log(
  `\nwindow ${llm.contextTokens} tokens, reply ${llm.maxOutputTokens}: prompt ${budget.prompt} tokens, cards' share ${llm.cardShare}; ` +
    `${WARMUP} warm-up turns, then ${TURNS} measured turns per story, round robin (order rotated each turn), seed ${SEED}`,
);
for (let i = 0; i < WARMUP + TURNS; i += 1) {
  for (let k = 0; k < runs.length; k += 1) {
    const run = runs[(i + k) % runs.length];
    await playTurn(run, run.firstTurn + i, i >= WARMUP);
  }
}

/** pg_column_size of each measured reply's stored record (the jsonb as stored, compressed when large) and of its whole row. */
async function storedSizes(run: Run): Promise<{ record: number[]; row: number[] }> {
  const { rows } = (await database.executeSql(
    `select pg_column_size(c.record) as record, pg_column_size(c.*) as row from narrator_contexts c
     where c.message_id = any($1::int[])`,
    [run.replyIds],
  )) as { rows: Array<{ record: number; row: number }> };
  return { record: rows.map((r) => Number(r.record)), row: rows.map((r) => Number(r.row)) };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const ms = (v: number) => formatMs(v, 2);
const field = (run: Run, name: keyof TurnTimes) => run.times.map((t) => t[name]);
const base = runs.find((run) => run.size === 0);
const thousand = runs.find((run) => run.size === 1000 && !run.hostile);

console.log(
  `\nPrompt build per turn (cardBudget + chooseTurnCards + assembleTurnPrompt + contextRecord), ${TURNS} turns each:\n`,
);
console.log(
  '| cards | p50 | p99 | mean | max | added p50 / p99 vs 0 cards (ms) | cards sent per turn (always-on + keyed) | keyed per turn | blocks listed | goal (+5 ms p99 at 1,000; hostile: 5 ms p99) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const run of runs) {
  const total = field(run, 'total');
  const added = base && [
    percentile(total, 50) - percentile(field(base, 'total'), 50),
    percentile(total, 99) - percentile(field(base, 'total'), 99),
  ];
  const p99 = percentile(total, 99);
  const verdict = run.hostile
    ? p99 <= GOAL_HOSTILE_P99_MS
      ? 'met'
      : `missed (${p99.toFixed(2)} ms)`
    : run === thousand && added
      ? added[1] <= GOAL_ADDED_P99_MS
        ? 'met'
        : `missed (+${added[1].toFixed(2)} ms)`
      : '';
  console.log(
    `| ${run.label} | ${ms(percentile(total, 50))} | ${ms(p99)} | ${ms(mean(total))} | ${ms(maxOf(total))} | ` +
      `${run === base || !added ? '-' : `${formatAdded(added[0], 2)} / ${formatAdded(added[1], 2)}`} | ` +
      `${mean(run.sent).toFixed(1)} (${mean(run.sentHead).toFixed(1)} + ${(mean(run.sent) - mean(run.sentHead)).toFixed(1)}) | ` +
      `${mean(run.keyed).toFixed(1)} | ${mean(run.listed).toFixed(1)} | ${verdict} |`,
  );
}

console.log('\nWhere the time goes, p50 / p99 per phase (the reads are the database calls inside chooseTurnCards):\n');
const phases: Array<[keyof TurnTimes | 'matching', string]> = [
  ['busy', 'of the whole build, this thread busy (the rest waits on PGlite)'],
  ['cardBudget', 'cardBudget'],
  ['heads', 'read the card heads'],
  ['history', 'read the history (sticky, cooldown)'],
  ['contents', 'read the contents'],
  ['matching', 'chooseTurnCards less its reads (matching, timing, budget)'],
  ['assemble', 'assembleTurnPrompt'],
  ['record', 'contextRecord'],
];
console.log(`| phase | ${runs.map((r) => `${r.label} cards`).join(' | ')} |`);
console.log(`|---|${runs.map(() => '---').join('|')}|`);
for (const [name, label] of phases) {
  const cells = runs.map((run) => {
    const values =
      name === 'matching' ? run.times.map((t) => t.choose - t.heads - t.history - t.contents) : field(run, name);
    return `${percentile(values, 50).toFixed(2)} / ${percentile(values, 99).toFixed(2)}`;
  });
  console.log(`| ${label} | ${cells.join(' | ')} |`);
}

console.log('\nThe context record per reply, bytes p50 / max:\n');
console.log('| cards | JSON | stored jsonb (pg_column_size) | stored row (pg_column_size) |');
console.log('|---|---|---|---|');
for (const run of runs) {
  const stored = await storedSizes(run);
  const pair = (values: number[]) =>
    `${percentile(values, 50).toLocaleString('en')} / ${maxOf(values).toLocaleString('en')}`;
  console.log(`| ${run.label} | ${pair(run.jsonBytes)} | ${pair(stored.record)} | ${pair(stored.row)} |`);
}
if (base && thousand)
  console.log(
    `\nThe window read per turn (after the memory folds): ${mean(base.windowMessages).toFixed(1)} messages on average, ` +
      `prompt ${mean(base.promptTokens).toFixed(0)} tokens with 0 cards, ${mean(thousand.promptTokens).toFixed(0)} with 1,000.`,
  );
await database.close();
