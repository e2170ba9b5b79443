// `npm run bench:loop`: the loop guard's detector (server/ai/llm/loop-detector.ts) on the
// seeded corpus of looping and varied transcripts (server/ai/llm/loop-corpus.ts, the fakes' varied
// prose). Prints:
// - the detector's time per reply against five earlier replies of about 500 words each (the
//   goal: p99 at most 5 ms), after a warm-up, one process, the replies in a fixed order;
// - the catch rate per looping kind and the false-positive rate per varied kind at the default
//   thresholds;
// - the same rates as each threshold moves, the others at their defaults, which is how the defaults
//   were chosen: where the varied kinds' flag rate stops falling while every seeded loop is caught;
// - the guard as a player meets it (lib/loop-ttft.ts): two real servers, guard on and off, side by
//   side, their time to the first word and to `done` (the goal: +0 ms p50 to the first
//   word), and a narrator stuck in a loop, rewritten with one extra call.
// Asserts nothing.
//
//   npm run bench:loop
//   npm run bench:loop -- --transcripts 1000 --timed 5000
//
// Flags: --transcripts (500 of each kind), --timed (2000 timed replies), --warmup (500), --turns
// (100 turns a server), --stuck (20 turns of the stuck narrator), --served off (the detector alone).
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DEFAULT_LOOP_THRESHOLDS, detectLoop, loopWords, type LoopThresholds } from '../../server/ai/llm/loop-detector';
import { loopCorpus, LOOP_KINDS, VARIED_KINDS, type LoopTranscript } from '../../server/ai/llm/loop-corpus';
import { measureServedGuard } from './lib/loop-ttft';
import { formatMs } from './lib/report';
import { maxOf, median, percentile } from './lib/stats';

const { values: args } = parseArgs({
  options: {
    transcripts: { type: 'string', default: '500' },
    timed: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '500' },
    turns: { type: 'string', default: '100' },
    stuck: { type: 'string', default: '20' },
    served: { type: 'string', default: 'on' },
  },
});
const COUNT = Number(args.transcripts);
const TIMED = Number(args.timed);
const WARMUP = Number(args.warmup);

const corpus = loopCorpus(COUNT);
const caught = (list: LoopTranscript[], thresholds: LoopThresholds) =>
  list.filter((t) => detectLoop(t.reply, t.history, thresholds).looping).length / list.length;
const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

// Time: the long replies (40 sentences) against five long earlier ones.
const long = corpus.varied['long varied reply'];
const words = long.map((t) => loopWords(t.reply).length);
const historyWords = long.map((t) => t.history.reduce((sum, h) => sum + loopWords(h).length, 0) / t.history.length);
for (let i = 0; i < WARMUP; i += 1) detectLoop(long[i % long.length].reply, long[i % long.length].history);
const times: number[] = [];
for (let i = 0; i < TIMED; i += 1) {
  const t = long[i % long.length];
  const started = performance.now();
  detectLoop(t.reply, t.history);
  times.push(performance.now() - started);
}
console.log(`bench:loop: ${COUNT} transcripts of each kind; thresholds ${JSON.stringify(DEFAULT_LOOP_THRESHOLDS)}`);
console.log(
  `detector time per reply (${TIMED} timed after ${WARMUP}; replies of ${median(words)} words, earlier replies of ${Math.round(median(historyWords))} words, 5 of them): p50 ${formatMs(median(times), 2)}, p99 ${formatMs(percentile(times, 99), 2)}, max ${formatMs(maxOf(times), 2)} (goal p99 ≤ 5 ms)`,
);

console.log('\nat the defaults:');
for (const kind of LOOP_KINDS)
  console.log(`  caught, ${kind}: ${percent(caught(corpus.looping[kind], DEFAULT_LOOP_THRESHOLDS))}`);
for (const kind of VARIED_KINDS)
  console.log(`  flagged, ${kind}: ${percent(caught(corpus.varied[kind], DEFAULT_LOOP_THRESHOLDS))}`);

/** Each threshold moved alone: the looping kinds' lowest catch rate and the varied kinds' highest flag rate. */
const sweeps: Array<[keyof LoopThresholds, number[]]> = [
  ['ngramShare', [0.4, 0.5, 0.6, 0.7, 0.8, 0.9]],
  ['openingWords', [5, 6, 7, 8, 10, 12, 16]],
  ['cycleRepeats', [2, 3, 4]],
  ['cycleMinWords', [6, 9, 12, 16, 24]],
];
console.log(
  '\neach threshold moved alone (lowest catch rate of the looping kinds / highest flag rate of the varied kinds):',
);
for (const [name, settings] of sweeps) {
  const cells = settings.map((value) => {
    const thresholds = { ...DEFAULT_LOOP_THRESHOLDS, [name]: value };
    const catchRate = Math.min(...LOOP_KINDS.map((k) => caught(corpus.looping[k], thresholds)));
    const flagRate = Math.max(...VARIED_KINDS.map((k) => caught(corpus.varied[k], thresholds)));
    return `${value}: ${percent(catchRate)} / ${percent(flagRate)}`;
  });
  console.log(`  ${name}  ${cells.join('   ')}`);
}

if (args.served !== 'off')
  await measureServedGuard({ turns: Number(args.turns), stuckTurns: Number(args.stuck), log: console.log });
