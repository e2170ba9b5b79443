// What every turn use case works with: the turn service's dependencies as the app passes them, the
// parts the service makes once per app from them (the card heads, the admission, each narrator's
// engine), and the plan a use case hands the reply writer. Types only, so the use
// cases and the service's door share them without importing one another.
import type { Budget } from '@server/ai/llm/context';
import type { ReadLimits } from '@server/ai/llm/fold';
import type { NarratorProvider } from '@server/ai/llm/types';
import type { Repositories } from '@server/db/repositories';
import type { MessageRecord, StoryRecord } from '@server/db/repositories/stories';
import type { UnfoldedRead } from '@server/db/repositories/story-turn';
import type { LlmConfig } from '@server/kernel/config';
import type { Drain } from '@server/kernel/drain';
import type { Log } from '@server/kernel/log';
import type { Metrics } from '@server/kernel/metrics';
import type { Preferences } from '@shared/schemas/preferences';
import type { StoryReply } from '@shared/schemas/story';
import type { Allowance, Hold } from '../../limits/allowance';
import type { QuotaService } from '../../limits/quotas';
import type { PreferencesSource } from '../../preferences/preferences';
import type { StoryBible } from '../bible';
import type { CardHeads } from '../cards/card-heads';
import type { GenerationDefaults } from '../generation-settings';
import type { LoopGuard, RewriteEvent } from '../loop-guard';
import type { StoryMemory } from '../memory/folds';
import type { MemoryBank } from '../memory/memory-bank';
import type { VectorRecall } from '../memory/vector-recall';
import type { NarratorService } from '../../narrators/narrators';
import type { TurnAdmission } from '../turn-admission';

export interface TurnDeps {
  repos: Repositories;
  /** The default narrator's settings (its provider comes from `narrators`, named for the ledger). */
  llm: LlmConfig;
  /** Which narrator writes each story, and its provider. */
  narrators: Pick<NarratorService, 'defaultNarrator' | 'ofStory' | 'preferred' | 'provider' | 'forTask' | 'all'>;
  /** Every turn passes the player's hourly rate and monthly allowance first (and so does a memory fold). */
  allowance: Allowance;
  /** Read by a story's start and a retry; a continue reads the same row with its lease, in one statement. */
  preferences: PreferencesSource;
  now: () => Date;
  /** Makes committed writes durable (PGlite WAL fsync) before a reply is reported done. */
  flush: () => Promise<void>;
  log: Log;
  /** The account quotas: a start counts a story; no turn begins once the stored text is full. */
  quotas: Pick<QuotaService, 'limits'>;
  /** Counts the replies being written, so a SIGTERM lets them finish (kernel/drain.ts). */
  drain?: Pick<Drain, 'track'>;
  /** The app's metrics: each turn's outcome by provider, and a streamed turn's time to its first word. */
  metrics?: Pick<Metrics, 'turnFinished' | 'firstWord'>;
  /** The memory bank, indexed after every fold (one per app, shared with the story's versions; made here when not given). */
  memoryBank?: MemoryBank;
  /** The memory bank's vectors, when EMBEDDINGS_PROVIDER is set (the same the memory bank embeds with). */
  vectors?: Pick<VectorRecall, 'search' | 'idle'>;
  /** The story bible, which keeps the facts of every fold (one per app, shared with its routes; made here when not given). */
  storyBible?: StoryBible;
  /** Asks for a saved reply's scene picture when the player has pictures on; what it answers rides on the reply. */
  illustrate?: (
    userId: number,
    storyId: number,
    messageId: number,
  ) => Promise<Pick<StoryReply, 'imageMessageId' | 'imageError'>>;
}

export interface PreparedTurn {
  storyId: number;
  /** onRewrite: the loop guard found the finished reply repeating and asks again, then its new text. */
  /** `log`: the request's logger, so the turn's lines carry its request id. */
  run(onDelta?: (text: string) => void, onRewrite?: (event: RewriteEvent) => void, log?: Log): Promise<StoryReply>;
}

/** What a turn needs of the narrator that writes it, made once per narrator (narrator-engine.ts). */
export interface NarratorEngine {
  /** Which narrator of the catalogue this is: its id and the label players know it by. */
  narrator: { id: string; label: string };
  provider: NarratorProvider;
  llm: LlmConfig;
  budget: Budget;
  /** A turn reads at most this much of its story: the newest unfolded messages the prompt could hold. */
  windowRead: ReadLimits;
  memory: StoryMemory;
  /** Each finished reply measured against the story's last ones, and asked for once more when it loops. */
  loopGuard: LoopGuard;
  /** A story's temperature when it has none, and the most the narrator accepts. */
  defaults: GenerationDefaults;
  /** The most a turn can cost: a full prompt and a full reply. Reserved before the action is kept; settled by its usage row. */
  turnTokens: number;
}

/** The service's dependencies with what it made of them once, for every turn to use. */
export interface TurnContext extends TurnDeps {
  /** The card heads of the stories being played, kept while their cards are unchanged. */
  cardHeads: CardHeads;
  /** The default narrator's engine: what a turn is admitted and read with before its story is known. */
  engine: NarratorEngine;
  /** The engine of the narrator that writes `story`. */
  engineFor(story: StoryRecord): Promise<NarratorEngine>;
  /**
   * The window a continue reads with its lease, before its story is read: that of the narrator that
   * wrote the story's last turn in this process, else the default's (a wrong guess is read again).
   */
  windowFor(storyId: number): ReadLimits;
  leaseUntil: () => Date;
  admission: TurnAdmission;
}

/** What a use case decided before the narrator is called: the reply writer's input. */
export interface TurnPlan {
  story: StoryRecord;
  action: MessageRecord;
  attempt: number;
  replace: MessageRecord | null;
  /** Set for a story start: a failed first reply still names the story the client can retry. */
  reportStoryId: boolean;
  /** The turn's reservation of the month, given back once its usage is recorded. */
  hold: Hold;
  /** What a continue already read with its lease (one round trip): the window (before the action), read with `limits`, and the preferences. */
  loaded?: { window: UnfoldedRead; limits: ReadLimits; preferences: Preferences };
  /** When the turn was asked for (performance.now()): its first word is timed from here. */
  began: number;
}
