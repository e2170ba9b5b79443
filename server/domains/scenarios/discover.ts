// Discover's list: public scenarios matching a query, newest published first or most liked, a page
// after an opaque keyset cursor (the last one's publication time or likes, and id: a deep page costs
// what the first does), of the ratings the viewer's content-rating preference allows.
import type { ContentRating } from '@shared/schemas/preferences';
import {
  DISCOVER_PAGE_SIZE,
  SCENARIO_ID_PATTERN,
  SCENARIO_MESSAGES,
  type DiscoverAnswer,
  type DiscoverQuery,
} from '@shared/schemas/scenarios';
import { DomainError } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import type { Repositories } from '@server/db/repositories';
import { toSummary } from './scenario-records';

const invalid = (message: string) => new DomainError('invalid', ERROR_CODES.validation, message);

/** The ratings a player sees on Discover, by their own content-rating preference (visitors: general). */
const RATINGS_SEEN: Record<ContentRating, ContentRating[]> = {
  general: ['general'],
  teen: ['general', 'teen'],
  mature: ['general', 'teen', 'mature'],
};

type Sort = DiscoverQuery['sort'];

/** A page's place, as an opaque text: its sort, the last scenario's publication time or likes, and id. */
const cursorOf = (sort: Sort, row: { publishedAt: Date; likes: number; id: string }) =>
  Buffer.from(JSON.stringify([sort, sort === 'likes' ? row.likes : row.publishedAt.toISOString(), row.id])).toString(
    'base64url',
  );

/** A cursor's place for `sort`; one of another sort, or not ours, is a 400. */
function placeOf(sort: Sort, cursor: string): { value: Date | number; id: string } {
  try {
    const [of, value, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (of === sort && typeof id === 'string' && SCENARIO_ID_PATTERN.test(id)) {
      if (sort === 'likes' && Number.isSafeInteger(value)) return { value: value as number, id };
      const at = new Date(String(value));
      if (sort === 'new' && !Number.isNaN(at.getTime())) return { value: at, id };
    }
  } catch {
    // Not ours: refused below.
  }
  throw invalid(SCENARIO_MESSAGES.badCursor);
}

/**
 * Discover: public scenarios matching the query, newest first, DISCOVER_PAGE_SIZE a page, of the
 * ratings the viewer's preference allows (a general player sees general ones only).
 */
export async function discoverScenarios(
  { repos }: { repos: Pick<Repositories, 'scenarios' | 'preferences'> },
  viewerId: number | null,
  query: DiscoverQuery,
): Promise<DiscoverAnswer> {
  const preference =
    viewerId === null ? 'general' : ((await repos.preferences.find(viewerId))?.contentRating ?? 'general');
  const seen = RATINGS_SEEN[preference];
  const ratings = query.rating ? seen.filter((rating) => rating === query.rating) : seen;
  const after = query.cursor ? placeOf(query.sort, query.cursor) : undefined;
  if (ratings.length === 0) return { scenarios: [], nextCursor: null };
  const rows = await repos.scenarios.discover({
    words: query.q || undefined,
    genre: query.genre,
    tag: query.tag,
    ratings,
    sort: query.sort,
    after,
    limit: DISCOVER_PAGE_SIZE + 1,
  });
  const page = rows.slice(0, DISCOVER_PAGE_SIZE);
  return {
    scenarios: page.map(toSummary),
    nextCursor: rows.length > DISCOVER_PAGE_SIZE ? cursorOf(query.sort, page[page.length - 1]) : null,
  };
}
