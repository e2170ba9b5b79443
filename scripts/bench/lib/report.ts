// How the benchmarks print their figures. First the units every benchmark uses (times in ms, with
// one decimal unless a coarser figure reads better, added times signed, sizes in KB and MB of 1024,
// ratios in %; '-' for a figure that could not be measured), then the streaming benchmarks' level:
// one markdown row per backend, tree and level with the provider measured directly next to the
// app, the app's added time to first token, turns/s, errors, RSS, and the goals for it.
// Percentiles come from stats.ts.
import type { LoopSummary } from './load';

const KB = 1024;
const MB = 1024 * 1024;

/** A time in ms: `12.3 ms` ('-' when it could not be measured). */
export function formatMs(v: number, digits = 1): string {
  return Number.isFinite(v) ? `${v.toFixed(digits)} ms` : '-';
}

/** A time added to a reference, signed: `+7` (ms implied by the column), '-' when unknown. */
export function formatAdded(v: number, digits = 0): string {
  return Number.isFinite(v) ? `${v >= 0 ? '+' : ''}${v.toFixed(digits)}` : '-';
}

/** A size in bytes as KB: `12.3 KB`. */
export function formatKb(bytes: number, digits = 1): string {
  return `${(bytes / KB).toFixed(digits)} KB`;
}

/** A size in bytes as MB: `256 MB`. */
export function formatMb(bytes: number, digits = 0): string {
  return `${(bytes / MB).toFixed(digits)} MB`;
}

/** A ratio as a percentage: `99 %`, '-' when either side is missing. */
export function formatPercent(ratio: number): string {
  return Number.isFinite(ratio) ? `${(ratio * 100).toFixed(0)} %` : '-';
}

export interface Goal {
  addedP50: number;
  addedP99: number;
  /** App turns/s over direct turns/s. */
  ratio: number;
}

export interface LevelRow {
  backend: string;
  tree: string;
  clients: number;
  direct: LoopSummary;
  app: LoopSummary;
  /** App RSS in MB: idle before the level, peak during it, 2 s after it. */
  rss: [number, number, number];
  /** The app process's CPU time (user + system) during the level, less its idle rate, over the turns it completed, in ms. */
  cpuPerTurnMs: number;
  goal: Goal;
}

/** The goals: added TTFT p50/p99 by concurrency, and at least 95 % of the provider's turns/s. */
export function goalFor(clients: number): Goal {
  if (clients <= 20) return { addedP50: 5, addedP99: 15, ratio: 0.95 };
  if (clients <= 100) return { addedP50: 8, addedP99: 46, ratio: 0.95 };
  return { addedP50: 45, addedP99: 135, ratio: 0.95 };
}

export const GOALS_NOTE =
  'Added = app TTFT percentile minus direct TTFT percentile (each from its own run of the level). Goals: added p50/p99 <= 5/15 ms at C <= 20, ' +
  '8/46 at C = 100, 45/135 at C = 200; app turns/s >= 95 % of direct; turns/s counts the turns inside the window from the end of the start-up ramp (one turn long) to the deadline, turns across its edges pro rata. ' +
  'App CPU ms/turn: user + system CPU time of the app process during the level, less its idle rate (measured while the provider ran directly), over its completed turns ' +
  '(memory folds included, PostgreSQL server processes not); other load on the machine disturbs it far less than latency and turns/s.';

/** A table cell in whole ms (the column says ms). */
const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '-');
const signed = (v: number) => formatAdded(v);

export function verdict(row: LevelRow): string {
  const addedP50 = row.app.ttftP50 - row.direct.ttftP50;
  const addedP99 = row.app.ttftP99 - row.direct.ttftP99;
  const ratio = row.app.turnsPerSecond / row.direct.turnsPerSecond;
  const missed = [
    addedP50 > row.goal.addedP50 || !Number.isFinite(addedP50) ? `p50 > ${row.goal.addedP50}` : '',
    addedP99 > row.goal.addedP99 || !Number.isFinite(addedP99) ? `p99 > ${row.goal.addedP99}` : '',
    ratio < row.goal.ratio || !Number.isFinite(ratio) ? `ratio < ${row.goal.ratio}` : '',
    row.app.errors > 0 ? 'errors' : '',
  ].filter(Boolean);
  return missed.length === 0 ? 'met' : `missed (${missed.join(', ')})`;
}

/** One line per finished level, printed as the run goes. */
export function levelLine(row: LevelRow): string {
  const ratio = row.app.turnsPerSecond / row.direct.turnsPerSecond;
  return (
    `  C=${row.clients}: TTFT p50/p99 direct ${ms(row.direct.ttftP50)}/${ms(row.direct.ttftP99)} ms, app ${ms(row.app.ttftP50)}/${ms(row.app.ttftP99)} ms ` +
    `(added ${signed(row.app.ttftP50 - row.direct.ttftP50)}/${signed(row.app.ttftP99 - row.direct.ttftP99)}); turns/s ${row.direct.turnsPerSecond.toFixed(1)} direct, ` +
    `${row.app.turnsPerSecond.toFixed(1)} app (${(ratio * 100).toFixed(0)} %); turn p50 ${ms(row.direct.totalP50)} direct, ${ms(row.app.totalP50)} app ` +
    `(last words to the end ${ms(row.direct.tailP50)}/${ms(row.app.tailP50)} ms); errors ${row.app.errors} app, ${row.direct.errors} direct; ` +
    `RSS ${row.rss.map((v) => v.toFixed(0)).join('/')} MB; app CPU ${row.cpuPerTurnMs.toFixed(1)} ms/turn; goal ${verdict(row)}`
  );
}

/** A Markdown table (as docs/benchmarks.md holds them): the header, its rule, then one line a row. */
export function printMarkdownTable(header: string[], rows: string[][], log: (line: string) => void): void {
  log(`| ${header.join(' | ')} |`);
  log(`|${header.map(() => '---').join('|')}|`);
  for (const row of rows) log(`| ${row.join(' | ')} |`);
}

export function printLevelTable(rows: LevelRow[], log: (line: string) => void, withTree: boolean): void {
  const header = [
    'C',
    ...(withTree ? ['tree'] : []),
    'direct TTFT p50/p99 ms',
    'app TTFT p50/p99 ms',
    'added p50/p99 ms',
    'turns/s direct',
    'turns/s app',
    'app/direct',
    'errors (app/direct)',
    'app RSS idle/peak/after MB',
    'app CPU ms/turn',
    'goal',
  ];
  printMarkdownTable(
    header,
    rows.map((row) => [
      String(row.clients),
      ...(withTree ? [row.tree] : []),
      `${ms(row.direct.ttftP50)} / ${ms(row.direct.ttftP99)}`,
      `${ms(row.app.ttftP50)} / ${ms(row.app.ttftP99)}`,
      `${signed(row.app.ttftP50 - row.direct.ttftP50)} / ${signed(row.app.ttftP99 - row.direct.ttftP99)}`,
      row.direct.turnsPerSecond.toFixed(1),
      row.app.turnsPerSecond.toFixed(1),
      formatPercent(row.app.turnsPerSecond / row.direct.turnsPerSecond),
      `${row.app.errors} / ${row.direct.errors}`,
      row.rss.map((v) => v.toFixed(0)).join(' / '),
      row.cpuPerTurnMs.toFixed(1),
      verdict(row),
    ]),
    log,
  );
  for (const row of rows) {
    for (const error of [
      ...row.app.firstErrors.map((e) => `app: ${e}`),
      ...row.direct.firstErrors.map((e) => `direct: ${e}`),
    ]) {
      log(`  C=${row.clients} ${row.tree}: ${error.slice(0, 300)}`);
    }
  }
}
