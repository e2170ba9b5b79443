// A user as the admin table, its footer and the CSV read them: the user's row beside their stats,
// whose month figures count only while the stats row's month is the current one.
import { sql } from 'drizzle-orm';
import { users, userStats } from '../../schema';

export interface AdminUserRow {
  id: number;
  username: string;
  email: string | null;
  isAdmin: boolean;
  createdAt: Date;
  lastActive: Date | null;
  stories: number;
  turns: number;
  textTokens: number;
  imageTokens: number;
  thisMonth: number;
  /** The image part of thisMonth. */
  monthImageTokens: number;
  /** The input part of textTokens and its cached part, all time and this month: what prices a row's costs. */
  inputTokens: number;
  cachedInputTokens: number;
  monthInputTokens: number;
  monthCachedInputTokens: number;
  /** This month's speech and transcription as allowance tokens (not part of thisMonth's tokens; part of the allowance's use). */
  monthSpeechTokens: number;
}

export const thisMonth = (month: string) =>
  sql<number>`case when ${userStats.month} = ${month} then ${userStats.monthTokens} else 0 end`;
export const monthImage = (month: string) =>
  sql<number>`case when ${userStats.month} = ${month} then ${userStats.monthImageTokens} else 0 end`;
export const monthInput = (month: string) =>
  sql<number>`case when ${userStats.month} = ${month} then ${userStats.monthInputTokens} else 0 end`;
export const monthCached = (month: string) =>
  sql<number>`case when ${userStats.month} = ${month} then ${userStats.monthCachedInputTokens} else 0 end`;
const monthSpeech = (month: string) =>
  sql<number>`case when ${userStats.speechMonth} = ${month} then ${userStats.monthSpeechTokens} else 0 end`;

/** The select list of an AdminUserRow in `month` (the rollups' key of the current month). */
export const columns = (month: string) => ({
  id: users.id,
  username: users.username,
  email: users.email,
  isAdmin: users.isAdmin,
  createdAt: users.createdAt,
  lastActive: users.lastActive,
  stories: userStats.stories,
  turns: userStats.turns,
  textTokens: userStats.textTokens,
  imageTokens: userStats.imageTokens,
  thisMonth: thisMonth(month).mapWith(Number),
  monthImageTokens: monthImage(month).mapWith(Number),
  inputTokens: userStats.inputTokens,
  cachedInputTokens: userStats.cachedInputTokens,
  monthInputTokens: monthInput(month).mapWith(Number),
  monthCachedInputTokens: monthCached(month).mapWith(Number),
  monthSpeechTokens: monthSpeech(month).mapWith(Number),
});
