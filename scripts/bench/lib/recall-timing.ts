// bench:recall's timing: a long story written straight through the repositories (its older turns
// folded, as a played story's are), indexed by the memory bank as the app indexes it, then turn
// prompts built for probe actions exactly as the turn service builds them (turn-prompt.ts), timing
// the recall (the story bible's facts at their cap, the bank's two reads and the rankings) and the
// assembly apart. With `embeddingsUrl` (the local embeddings fake), every passage is embedded first
// and each probe's action too, before its first word: the prompt's whole time to build is timed as
// well, the round trip included.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { computeBudget, type Count } from '../../../server/ai/llm/context';
import { windowLimits } from '../../../server/ai/llm/fold';
import { narratorSystemPrompt } from '../../../server/ai/llm/prompts';
import { openDatabase, type Database } from '../../../server/db/client';
import { createRepositories } from '../../../server/db/repositories';
import { createCardHeads } from '../../../server/domains/story/cards/card-heads';
import { createEmbeddingsProvider } from '../../../server/ai/embeddings/registry';
import { allowanceConfig, createAllowance } from '../../../server/domains/limits/allowance';
import { createRequestLimiter } from '../../../server/domains/limits/request-limits';
import { createMemoryBank } from '../../../server/domains/story/memory/memory-bank';
import { createVectorRecall, type VectorRecall } from '../../../server/domains/story/memory/vector-recall';
import { buildTurnPrompt } from '../../../server/domains/story/turn-prompt';
import { loadConfig } from '../../../server/kernel/config';
import { proseWriter, seededRandom } from '../../../server/test/varied-prose';
import { STORY_BIBLE_MAX_FACTS } from '../../../shared/schemas/story-bible';
import { DEFAULT_PREFERENCES } from '../../../shared/schemas/preferences';
import { probeAction, recallPlan } from './recall-story';

export interface RecallTimes {
  recall: number[];
  assemble: number[];
  both: number[];
  /** From the turn prompt's start to its assembly (the vector search's round trip included). */
  built: number[];
  /** Passages in the bank when the probes ran. */
  passages: number;
  /** Passages ranked per probe (those matching an anchoring term). */
  hits: number[];
  /** Vector neighbours fused per probe (0 by full text alone). */
  near: number[];
}

/** Turns left unfolded at the end of the written story, as after a fold. */
const UNFOLDED_TURNS = 12;

async function open(backend: 'pglite' | 'postgres', postgresUrl?: string) {
  if (backend === 'pglite') {
    const database = await openDatabase({ kind: 'pglite-memory' });
    return { database, cleanUp: () => database.close() };
  }
  const name = `tw_bench_recall_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(postgresUrl!);
  url.pathname = `/${name}`;
  const database: Database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 4 });
  return {
    database,
    cleanUp: async () => {
      await database.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The app's vector recall when the configuration names an embeddings provider, with the app's allowance (in-process limits). */
function hybridRecall(
  repos: ReturnType<typeof createRepositories>,
  config: ReturnType<typeof loadConfig>,
): VectorRecall | undefined {
  const provider = createEmbeddingsProvider(config.embeddings);
  if (!provider) return undefined;
  const now = () => new Date();
  const allowance = createAllowance({
    repos,
    limiter: createRequestLimiter({ now, shared: null, log: silent }),
    config: allowanceConfig(config),
    now,
    log: silent,
  });
  return createVectorRecall({ repos, provider, allowance, config: config.embeddings, now, log: silent });
}

export async function timeRecall(input: {
  backend: 'pglite' | 'postgres';
  postgresUrl?: string;
  turns: number;
  probes: number;
  seed: number;
  count: Count;
  /** The embeddings fake's base URL: hybrid recall, every passage embedded first. */
  embeddingsUrl?: string;
}): Promise<RecallTimes> {
  const { database, cleanUp } = await open(input.backend, input.postgresUrl);
  try {
    await database.migrate();
    const repos = createRepositories(database.db);
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      LLM_PROVIDER: 'builtin',
      ...(input.embeddingsUrl
        ? { EMBEDDINGS_PROVIDER: 'openai', EMBEDDINGS_BASE_URL: input.embeddingsUrl, EMBEDDINGS_MODEL: 'bench-embed' }
        : {}),
    });
    const llm = config.llm;
    const vectors = hybridRecall(repos, config);
    const budget = computeBudget(llm.contextTokens, llm.maxOutputTokens);
    const plan = recallPlan(input.seed, input.turns, 20);
    const writer = proseWriter(input.seed + 3);
    const user = await repos.users.insert({
      username: 'bench-recall',
      email: 'bench-recall@example.com',
      passwordHash: 'not-a-hash',
      isAdmin: false,
    });
    const start = Date.now() - (input.turns + input.probes + 1) * 60_000;
    const { story: created } = await repos.stories.create({
      userId: user.id,
      premise: 'A travelling courier carries letters between the river towns of the marsh country',
      now: new Date(start),
      leaseUntil: new Date(start),
    });
    let foldThrough = 0;
    for (let turn = 0; turn <= input.turns; turn += 1) {
      const at = new Date(start + turn * 60_000);
      if (turn > 0) await repos.stories.appendAction(created.id, plan.actions[turn], at);
      const reply = await repos.stories.saveReply({
        storyId: created.id,
        turn,
        content: writer.reply(),
        alternativeTo: null,
        usage: null,
        now: new Date(at.getTime() + 1000),
      });
      if (turn === input.turns - UNFOLDED_TURNS) foldThrough = reply.id;
    }
    await repos.stories.applyFold(
      created.id,
      { throughId: 0, memory: '' },
      foldThrough,
      writer.reply(12),
      new Date(start + input.turns * 60_000),
    );
    const random = seededRandom(input.seed + 4);
    const SYLLABLES = ['bra', 'mor', 'quen', 'tal', 'vis', 'drun', 'hal', 'sen', 'lok', 'ery', 'wim', 'oth'];
    const made = () => Array.from({ length: 3 }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join('');
    const capitalised = (word: string) => word[0].toUpperCase() + word.slice(1);
    // The story bible at its cap: the planted facts and filler ones, all on folded messages, so each
    // probe ranks the most facts a story can hold.
    const folded = (
      await database.executeSql(
        'select id, turn from story_messages where story_id = $1 and id <= $2 and not is_initial order by id',
        [created.id, foldThrough],
      )
    ).rows as Array<{ id: number; turn: number }>;
    const facts = Array.from({ length: STORY_BIBLE_MAX_FACTS }, (_, i) => {
      const source = folded[i % folded.length];
      const planted = plan.facts[i];
      return {
        messageId: source.id,
        turn: source.turn,
        entity: planted
          ? `your ${planted.thing}`
          : `the ${made()} ${['barge', 'inn', 'mill', 'bridge', 'ferry'][i % 5]}`,
        attribute: planted ? 'name' : ['owner', 'colour', 'price', 'cargo'][i % 4],
        value: planted ? planted.value : capitalised(made()),
        pinned: i < 3,
      };
    });
    await repos.storyBible.add(created.id, facts, new Date(start), STORY_BIBLE_MAX_FACTS);
    const bank = createMemoryBank({ repos, log: silent, vectors });
    while (
      (await repos.memoryBank.unindexed(created.id, 1)).length > 0 ||
      (vectors && (await repos.memoryVectors.unembedded(created.id, config.embeddings.model, 1)).length > 0)
    ) {
      bank.index(created.id, 'all');
      await bank.idle();
    }
    const passages = Number(
      (
        (await database.executeSql('select count(*) as n from memory_passages where story_id = $1', [created.id]))
          .rows[0] as { n: number | string }
      ).n,
    );

    const times: RecallTimes = { recall: [], assemble: [], both: [], built: [], passages, hits: [], near: [] };
    const cardHeads = createCardHeads(repos);
    const system = narratorSystemPrompt(DEFAULT_PREFERENCES);
    const windowRead = windowLimits(budget);
    for (let probe = 0; probe < input.probes; probe += 1) {
      const at = new Date(start + (input.turns + probe + 1) * 60_000);
      const fact = plan.facts[probe % plan.facts.length];
      // Numbered, so that no probe's query vector is one the app already holds.
      const action = await repos.stories.appendAction(created.id, `${probeAction(fact.thing)} (${probe + 1})`, at);
      const story = (await repos.stories.findOwned(created.id, user.id))!;
      const window = await repos.stories.recentUnfolded(story.id, story.memoryThroughId, action.id, windowRead);
      const marks = { cardBudget: 0, cards: 0, recall: 0, assemble: 0 };
      const started = performance.now();
      await buildTurnPrompt(
        {
          repos,
          cardHeads,
          budget,
          cardShare: llm.cardShare,
          recallTokens: llm.recallTokens,
          count: input.count,
          system,
          story,
          action,
          window,
          vectors,
        },
        (phase) => (marks[phase] = performance.now()),
      ).then(({ recall }) => {
        times.hits.push(recall.ranked);
        times.near.push(recall.near);
      });
      times.built.push(marks.assemble - started);
      times.recall.push(marks.recall - marks.cards);
      times.assemble.push(marks.assemble - marks.recall);
      times.both.push(marks.assemble - marks.cards);
      await repos.stories.saveReply({
        storyId: created.id,
        turn: action.turn,
        content: writer.reply(),
        alternativeTo: null,
        usage: null,
        now: new Date(at.getTime() + 1000),
      });
      bank.index(created.id, 'all');
      await bank.idle();
    }
    return times;
  } finally {
    await cleanUp();
  }
}
