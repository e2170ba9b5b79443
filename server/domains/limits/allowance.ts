// The allowance: every paid call passes here before it is made (narrator turns with their retries and
// alternatives, the loop guard's second calls, memory summaries, titles, style sheets, pictures, speech, transcription and the memory
// bank's embeddings). Two checks, each before the provider is asked:
//   - an hourly rate per kind of call, counted like the other request limits (in memory, or in Redis
//     for every instance), so no player can make calls faster than a person plays;
//   - the monthly token allowance (USER_MONTHLY_TOKEN_LIMIT): the call reserves what it may cost in the
//     database, and gives the reservation back once its usage row is written. A call passes while the
//     month's use plus the reservations in flight is under the limit, so parallel calls cannot all pass
//     on one remaining balance (the last call may cross the line, as a single call always could).
// Reservations are shared by every instance and expire by themselves if their process dies.
import type { AppConfig } from '@server/kernel/config';
import type { Repositories } from '@server/db/repositories';
import { DomainError, tooManyRequests } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import { IMAGE_MESSAGES } from '@shared/schemas/images';
import { SPEECH_MESSAGES } from '@shared/schemas/speech';
import { STORY_MESSAGES } from '@shared/schemas/story';
import { createOneAtATime } from '../../kernel/one-at-a-time';
import type { RequestLimiter } from './request-limits';
import type { Log } from '@server/kernel/log';
import type { Metrics } from '@server/kernel/metrics';
import type { Drain } from '@server/kernel/drain';

/** The kinds of paid call, as the usage ledger names them. */
export type PaidCall =
  'turn' | 'retry-loop' | 'summary' | 'title' | 'style' | 'image' | 'speech' | 'transcription' | 'embedding';

export interface AllowanceConfig {
  /** Tokens a player may spend per UTC month; null is unlimited (no reservations are made). */
  monthlyTokenLimit: number | null;
  /** Calls of each kind a player may make per hour. */
  perHour: Record<PaidCall, number>;
  /** How long each kind of call may take at most: a reservation outlives it by a minute, then expires. */
  timeoutMs: Record<PaidCall, number>;
}

/** The allowance's settings as the configuration gives them. */
export function allowanceConfig(
  config: Pick<
    AppConfig,
    'userMonthlyTokenLimit' | 'narratorCallsPerHour' | 'llm' | 'image' | 'tts' | 'stt' | 'embeddings'
  >,
): AllowanceConfig {
  const { turns, sideCalls } = config.narratorCallsPerHour;
  const narrator = config.llm.timeoutMs;
  return {
    monthlyTokenLimit: config.userMonthlyTokenLimit,
    perHour: {
      turn: turns,
      // The loop guard's second call is a turn's call like any other: it takes from the same hour.
      'retry-loop': turns,
      summary: sideCalls,
      title: sideCalls,
      style: sideCalls,
      image: config.image.maxPerHour,
      speech: config.tts.maxPerHour,
      transcription: config.stt.maxPerHour,
      embedding: config.embeddings.maxPerHour,
    },
    // A picture may run twice (one retry after a timeout).
    timeoutMs: {
      turn: narrator,
      'retry-loop': narrator,
      summary: narrator,
      title: narrator,
      style: narrator,
      image: 2 * config.image.timeoutMs,
      speech: config.tts.timeoutMs,
      transcription: config.stt.timeoutMs,
      embedding: config.embeddings.timeoutMs,
    },
  };
}

/** What a call reserved; give it back once the call's usage is recorded or the call failed. Safe to call twice. */
export interface Hold {
  release(): Promise<void>;
}

const HOUR_MS = 3_600_000;
/** Hourly windows restart within the hour; this is when asking again is likely to work. */
const RETRY_AFTER_SECONDS = 600;
const HOLD_MARGIN_MS = 60_000;

/** Each call's hourly bucket (the existing ones kept their names) and the words of its 429. */
const HOURLY: Record<PaidCall, { bucket: string; message: string }> = {
  turn: { bucket: 'turn-user', message: STORY_MESSAGES.tooManyTurns },
  // The turns' own bucket: a bucket of its own would give a player twice their turns' paid calls an
  // hour. Admitted with admitOrNull only (a refused second call keeps the first reply, marked).
  'retry-loop': { bucket: 'turn-user', message: STORY_MESSAGES.tooManyTurns },
  summary: { bucket: 'side-call-user', message: STORY_MESSAGES.tooManySideCalls },
  title: { bucket: 'side-call-user', message: STORY_MESSAGES.tooManySideCalls },
  style: { bucket: 'side-call-user', message: STORY_MESSAGES.tooManySideCalls },
  image: { bucket: 'image-user', message: IMAGE_MESSAGES.tooMany },
  speech: { bucket: 'speech-user', message: SPEECH_MESSAGES.tooManySpeech },
  transcription: { bucket: 'transcription-user', message: SPEECH_MESSAGES.tooManyRecordings },
  // Admitted with admitOrNull only (a refused embedding leaves recall to full text), so no player reads it.
  embedding: { bucket: 'embedding-user', message: STORY_MESSAGES.tooManySideCalls },
};

export const allowanceUsed = () => new DomainError('limited', ERROR_CODES.allowanceUsed, STORY_MESSAGES.allowanceUsed);
/** The monthly allowance's name among the limits the metrics count (the hourly ones are the request limiter's buckets). */
const MONTHLY_LIMIT = 'monthly-allowance';

/**
 * Allowance tokens of speech and transcription (docs/configuration.md, "Paid calls"): a spoken character is a quarter of a
 * token, a transcript's character two (about 25 tokens a second of speech), at least 25 a recording.
 * The database applies the same rule to the ledger (migration 0011); these estimate a call beforehand.
 */
export const speechTokens = (characters: number) => Math.ceil(characters / 4);
/** A recording's expected transcript: 13 characters a second of speech, a second per 4 KB (32 kbit/s, a browser's voice recording). */
export const expectedTranscriptionTokens = (bytes: number) => Math.max(25, 2 * 13 * Math.ceil(bytes / 4000));

const NO_HOLD: Hold = { release: () => Promise.resolve() };

/** A player with reservations waiting in this process: tickets by arrival, and the last refusal (which tickets it covers, for how many tokens). */
interface AskingPlayer {
  arrived: number;
  waiting: number;
  refusedUpTo: number;
  refusedTokens: number;
}

export function createAllowance(deps: {
  repos: Pick<Repositories, 'allowance'>;
  limiter: Pick<RequestLimiter, 'allow'>;
  config: AllowanceConfig;
  now: () => Date;
  log: Log;
  /** The app's metrics: a call refused by the month is counted as monthly-allowance. */
  metrics?: Pick<Metrics, 'limitRefused'>;
  /** Once a SIGTERM's drain begins, no new paid call starts here: 503 with Retry-After. */
  drain?: Pick<Drain, 'refuseIfDraining'>;
}) {
  const { repos, config } = deps;
  const limit = config.monthlyTokenLimit;

  /** Counts one call of this kind in the player's hour; the 429 the player reads when it is one too many. */
  async function takeHour(userId: number, call: PaidCall): Promise<void> {
    deps.drain?.refuseIfDraining();
    const hourly = HOURLY[call];
    if (
      !(await deps.limiter.allow(
        { bucket: hourly.bucket, max: config.perHour[call], windowMs: HOUR_MS },
        String(userId),
      ))
    ) {
      throw tooManyRequests(hourly.message, RETRY_AFTER_SECONDS);
    }
  }

  /** Each player's reservations are asked of the database one after another (see askInTurn). */
  const oneAtATime = createOneAtATime();
  const asking = new Map<number, AskingPlayer>();

  /**
   * A player's reservation from the database, in turn with their others in this process. One that
   * arrived before a refusal of as many tokens or fewer was decided shares that refusal without a
   * query: the month was spent at a moment while it waited. So 50 calls sent at once make two
   * reservation queries, not 50 that every other request's queries queue behind (bench:abuse
   * parallel-starts). Only refusals are shared; every grant is the database's, for every instance.
   */
  async function askInTurn(
    userId: number,
    tokens: number,
    reserveInDb: () => Promise<number | null>,
  ): Promise<number | null> {
    const player = asking.get(userId) ?? {
      arrived: 0,
      waiting: 0,
      refusedUpTo: 0,
      refusedTokens: Number.POSITIVE_INFINITY,
    };
    asking.set(userId, player);
    const ticket = (player.arrived += 1);
    player.waiting += 1;
    try {
      return await oneAtATime(userId, async () => {
        if (ticket <= player.refusedUpTo && tokens >= player.refusedTokens) return null;
        const id = await reserveInDb();
        if (id === null) {
          player.refusedUpTo = player.arrived;
          player.refusedTokens = tokens;
        }
        return id;
      });
    } finally {
      player.waiting -= 1;
      if (player.waiting === 0) asking.delete(userId);
    }
  }

  /** Reserves `tokens` of the month for a call of this kind; the 429 when the allowance is spent. */
  async function reserve(userId: number, call: PaidCall, tokens: number): Promise<Hold> {
    if (limit === null) return NO_HOLD;
    const wanted = Math.max(1, Math.ceil(tokens));
    const id = await askInTurn(userId, wanted, () => {
      const now = deps.now();
      return repos.allowance.reserve({
        userId,
        tokens: wanted,
        limit,
        now,
        expiresAt: new Date(now.getTime() + config.timeoutMs[call] + HOLD_MARGIN_MS),
      });
    });
    if (id === null) {
      deps.metrics?.limitRefused(MONTHLY_LIMIT);
      throw allowanceUsed();
    }
    let released = false;
    return {
      async release() {
        if (released) return;
        released = true;
        // A reservation that could not be given back only makes the check stricter until it expires.
        await repos.allowance
          .release(id)
          .catch((err: unknown) => deps.log.warn({ err, userId }, 'could not release an allowance reservation'));
      },
    };
  }

  return {
    takeHour,
    reserve,

    /** Both checks, for a call about to be made: its hour, then its reservation. */
    async admit(userId: number, call: PaidCall, tokens: number): Promise<Hold> {
      await takeHour(userId, call);
      return reserve(userId, call, tokens);
    },

    /**
     * Both checks for a call that has a free fallback (a title from the premise, heuristic looks):
     * the reservation, or null when the hour or the month refuses it.
     */
    async admitOrNull(userId: number, call: PaidCall, tokens: number): Promise<Hold | null> {
      try {
        await takeHour(userId, call);
        return await reserve(userId, call, tokens);
      } catch (error) {
        if (error instanceof DomainError) return null;
        throw error;
      }
    },

    /** The monthly check alone, without reserving (a picture is reserved when its job runs). */
    async checkMonth(userId: number): Promise<void> {
      deps.drain?.refuseIfDraining();
      if (limit === null) return;
      const { used, held } = await repos.allowance.usage(userId, deps.now());
      if (used + held >= limit) {
        deps.metrics?.limitRefused(MONTHLY_LIMIT);
        throw allowanceUsed();
      }
    },
  };
}
export type Allowance = ReturnType<typeof createAllowance>;
