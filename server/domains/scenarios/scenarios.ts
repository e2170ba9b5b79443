// Scenarios as their author keeps them: a draft made, edited, published (public or unlisted, each
// time its next version), unpublished and deleted, and read by anyone once published. A draft is its
// author's alone: to everyone else it is 404, exactly like one that is not there. What a scenario
// holds is checked as a story's cards are (their regular-expression keys must run on RE2, and only
// so many), its choices bounded in number and depth, and a recommended narrator must be one the
// author may pick. A draft may also be made from one of the author's stories (never its turns) or remix
// one the player may read; Discover's list is discover.ts, the answers' shapes scenario-records.ts.
import { randomBytes } from 'node:crypto';
import type { Repositories } from '@server/db/repositories';
import type { RemixOf, ScenarioFields, ScenarioRecord } from '@server/db/repositories/scenarios';
import { DomainError, tooManyRequests } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import {
  type DiscoverAnswer,
  type DiscoverQuery,
  SCENARIO_CARDS_MAX,
  SCENARIO_ID_PATTERN,
  SCENARIO_MESSAGES,
  type Scenario,
  type ScenarioCreateBody,
  type ScenarioLikeAnswer,
  type ScenarioSummary,
  type ScenarioUpdateBody,
} from '@shared/schemas/scenarios';
import { STORY_REGEX_KEYS_MAX, STORY_CARD_MESSAGES } from '@shared/schemas/story-cards';
import type { RequestLimiter } from '../limits/request-limits';
import type { NarratorService } from '../narrators/narrators';
import { regexKeysOf } from '../story/cards/card-values';
import { keyProblem } from '../story/cards/regex-keys';
import { discoverScenarios } from './discover';
import { scenarioFromStory } from './from-story';
import { allCards, fieldsOf, toScenario, toSummary, withOptionIds } from './scenario-records';

export interface ScenarioDeps {
  repos: Pick<Repositories, 'scenarios' | 'scenarioLikes' | 'stories' | 'storyCards' | 'preferences'>;
  narrators: Pick<NarratorService, 'choose' | 'preferred'>;
  limiter: Pick<RequestLimiter, 'allow'>;
  limits: { maxPerUser: number; publishPerHour: number };
  now: () => Date;
}

const SCENARIO_ID_BYTES = 16;

const notFound = () => new DomainError('notFound', ERROR_CODES.notFound, SCENARIO_MESSAGES.notFound);
const invalid = (message: string) => new DomainError('invalid', ERROR_CODES.validation, message);

export function createScenarioService(deps: ScenarioDeps) {
  const { repos, now } = deps;
  const publishLimit = { bucket: 'scenario-publish', max: deps.limits.publishPerHour, windowMs: 3_600_000 };

  /**
   * What a scenario would hold, refused with a 400 naming the first problem. `narrator` is the
   * recommendation being set, if one is (an edit of other fields keeps one that has left the file).
   */
  async function check(
    userId: number,
    s: Pick<ScenarioFields, 'cards' | 'options'> & { narrator?: string | null },
  ): Promise<void> {
    const cards = allCards(s.cards, s.options);
    if (cards.length > SCENARIO_CARDS_MAX) throw invalid(SCENARIO_MESSAGES.tooManyCards);
    if (cards.reduce((sum, card) => sum + regexKeysOf(card), 0) > STORY_REGEX_KEYS_MAX)
      throw invalid(STORY_CARD_MESSAGES.tooManyRegexKeys);
    for (const card of cards) {
      const problem = keyProblem(card);
      if (problem) throw invalid(`${card.name}: ${problem}`);
    }
    if (s.narrator !== undefined && s.narrator !== null) await deps.narrators.choose(s.narrator, userId);
  }

  /** The scenario, or null; an id of the wrong shape is never looked for. */
  const find = (id: string) => (SCENARIO_ID_PATTERN.test(id) ? repos.scenarios.find(id) : Promise.resolve(null));

  /** A scenario the viewer may read (published, or their own draft), or 404. */
  async function readable(id: string, viewerId: number | null): Promise<ScenarioRecord> {
    const record = await find(id);
    if (!record || (record.visibility === 'draft' && record.userId !== viewerId)) throw notFound();
    return record;
  }

  /** The author's scenario, or 404. */
  async function own(userId: number, id: string): Promise<ScenarioRecord> {
    const record = await find(id);
    if (!record || record.userId !== userId) throw notFound();
    return record;
  }

  async function create(userId: number, body: ScenarioCreateBody, remixOf: RemixOf | null = null): Promise<Scenario> {
    const fields = { ...body, options: withOptionIds(body.options) };
    await check(userId, fields);
    const id = randomBytes(SCENARIO_ID_BYTES).toString('base64url');
    const made = await repos.scenarios.create({
      ...fields,
      id,
      userId,
      now: now(),
      max: deps.limits.maxPerUser,
      remixOf,
    });
    if (!made)
      throw new DomainError('limited', ERROR_CODES.quotaExceeded, SCENARIO_MESSAGES.tooMany(deps.limits.maxPerUser));
    return toScenario(made, userId);
  }

  return {
    create,

    /** A draft from one of the player's stories, never its turns (from-story.ts). */
    fromStory: (userId: number, storyId: number): Promise<Scenario> =>
      scenarioFromStory(deps, (body) => create(userId, body), userId, storyId),

    /** A published scenario to anyone (visitors too); a draft to its author only, else 404. */
    async read(id: string, viewerId: number | null): Promise<Scenario> {
      const record = await readable(id, viewerId);
      return toScenario(record, viewerId, viewerId !== null && (await repos.scenarioLikes.likedBy(id, viewerId)));
    },

    /** Gives or takes back the player's one like of a scenario they may read. */
    async like(userId: number, id: string, liked: boolean): Promise<ScenarioLikeAnswer> {
      await readable(id, userId);
      return { likes: await repos.scenarioLikes.setLike(id, userId, liked, now()), liked };
    },

    /** Discover's page (discover.ts). */
    discover: (viewerId: number | null, query: DiscoverQuery): Promise<DiscoverAnswer> =>
      discoverScenarios(deps, viewerId, query),

    /**
     * A new draft of the player's from a scenario they may read (published, or their own), its
     * lineage kept: the original's id, title and author as they are now.
     */
    async remix(userId: number, id: string): Promise<Scenario> {
      const source = await readable(id, userId);
      const fields = fieldsOf(source);
      // Its narrator only while the remixer may pick it too; else none is recommended.
      const narrator = (await deps.narrators.preferred(fields.narrator, userId))?.id ?? null;
      return create(
        userId,
        { ...fields, narrator, genre: fields.genre as ScenarioCreateBody['genre'] },
        {
          id: source.id,
          title: source.title,
          author: source.authorName,
        },
      );
    },

    async mine(userId: number): Promise<ScenarioSummary[]> {
      return (await repos.scenarios.listForAuthor(userId)).map(toSummary);
    },

    /** Changes the author's scenario; an edit of a published one publishes its next version. */
    async update(userId: number, id: string, body: ScenarioUpdateBody): Promise<Scenario> {
      const current = await own(userId, id);
      const { options, ...rest } = body;
      const changes = options === undefined ? rest : { ...rest, options: withOptionIds(options) };
      await check(userId, { cards: current.cards, options: current.options, ...changes });
      const updated = await repos.scenarios.update(id, userId, changes, now());
      if (!updated) throw notFound();
      return toScenario(updated, userId);
    },

    async remove(userId: number, id: string): Promise<void> {
      if (!(await repos.scenarios.delete(id, userId))) throw notFound();
    },

    /** Public or unlisted, at most SCENARIO_PUBLISH_PER_HOUR times an hour per player. */
    async publish(userId: number, id: string, visibility: 'public' | 'unlisted'): Promise<Scenario> {
      await own(userId, id);
      if (!(await deps.limiter.allow(publishLimit, String(userId))))
        throw tooManyRequests(SCENARIO_MESSAGES.tooManyPublished, 3600);
      const published = await repos.scenarios.publish(id, userId, visibility, now());
      if (!published) throw notFound();
      return toScenario(published, userId);
    },

    async unpublish(userId: number, id: string): Promise<Scenario> {
      const draft = await repos.scenarios.unpublish(id, userId, now());
      if (!draft) throw notFound();
      return toScenario(draft, userId);
    },
  };
}
export type ScenarioService = ReturnType<typeof createScenarioService>;
