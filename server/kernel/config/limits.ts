// What one player may spend and keep (USER_*): the monthly allowance, hourly narrator calls and
// the account quotas. Documented under Limits, beside the request limits of server.ts.
import { positiveInt } from './env';
import { setting, type ParsedSettings } from './setting';

/** USER_MAX_STORED_MB counts mebibytes. */
export const BYTES_PER_MB = 1024 * 1024;

export const limitsSettings = {
  USER_MONTHLY_TOKEN_LIMIT: setting({
    group: 'Limits',
    doc: 'Tokens each player may spend per calendar month (UTC), every paid call counted; unset is unlimited.',
    example: '2000000',
    schema: positiveInt('USER_MONTHLY_TOKEN_LIMIT'),
  }),
  USER_TURNS_PER_HOUR: setting({
    group: 'Limits',
    doc: 'Narrator turns each player may ask for per hour, retries and alternatives included; then 429.',
    default: '300',
    schema: positiveInt('USER_TURNS_PER_HOUR'),
  }),
  USER_SIDE_CALLS_PER_HOUR: setting({
    group: 'Limits',
    doc: "The narrator's other calls (memory summaries, titles, style sheets) each player may cause per hour.",
    default: '300',
    schema: positiveInt('USER_SIDE_CALLS_PER_HOUR'),
  }),
  USER_MAX_STORIES: setting({
    group: 'Limits',
    doc: 'Stories each player may keep, started, imported and branched alike; one more answers 429.',
    default: '1000',
    schema: positiveInt('USER_MAX_STORIES'),
  }),
  USER_MAX_SHARES: setting({
    group: 'Limits',
    doc: 'Live share links each player may have; one more answers 429.',
    default: '200',
    schema: positiveInt('USER_MAX_SHARES'),
  }),
  USER_MAX_STORED_MB: setting({
    group: 'Limits',
    doc: 'Data each player may store, in MB (MiB), pictures not counted; a write past it answers 413.',
    default: '500',
    schema: positiveInt('USER_MAX_STORED_MB'),
  }),
  STORY_MAX_CARDS: setting({
    group: 'Limits',
    doc: 'Story cards one story may hold; one more answers 429.',
    default: '1000',
    schema: positiveInt('STORY_MAX_CARDS'),
  }),
  USER_MAX_SCENARIOS: setting({
    group: 'Limits',
    doc: 'Scenarios (drafts and published) one account may keep; one more answers 429.',
    default: '100',
    schema: positiveInt('USER_MAX_SCENARIOS'),
  }),
  SCENARIO_PUBLISH_PER_HOUR: setting({
    group: 'Limits',
    doc: 'Scenario publishes (and moves between public and unlisted) per player per hour.',
    default: '10',
    schema: positiveInt('SCENARIO_PUBLISH_PER_HOUR'),
  }),
};

type LimitsEnv = ParsedSettings<typeof limitsSettings>;

/** What one account may keep (`config.quotas`), read from the USER_MAX_* variables. */
export function quotaLimits(e: LimitsEnv) {
  return {
    /** Stories an account may keep (started, imported and branched alike). */
    maxStories: e.USER_MAX_STORIES,
    /** Live share links an account may have. */
    maxShares: e.USER_MAX_SHARES,
    /** Bytes of stored story text (messages, their versions, premise, memory, notes, kept folds) and share snapshots. */
    maxStoredBytes: e.USER_MAX_STORED_MB * BYTES_PER_MB,
  };
}

export type QuotaLimits = ReturnType<typeof quotaLimits>;
