// The usage ledger: one row per provider call (user, story, provider, model, kind, input and output
// tokens, time), and its read side: token totals per user and overall, all time and for the
// current calendar month (UTC), daily history and a user's months. Every read goes through the
// rollups the database keeps beside the ledger (user_stats, usage_daily, user_usage_monthly, see
// schema.ts), so no read scans the ledger. Speech and transcription rows carry characters and no
// tokens, so the token totals are unchanged by them. One module per reader: the ledger's rows
// (ledger.ts), a player's figures (player-usage.ts), the operator's (operator-usage.ts), over the
// rollups' keys and sums (rollups.ts).
import type { Db } from '../../client';
import { ledgerRows } from './ledger';
import { operatorUsage } from './operator-usage';
import { playerUsage } from './player-usage';

export type { LedgerRow, UsageEvent } from './ledger';
export type { DailyKindUsage, ModelUsage, NarratorKindTotals } from './operator-usage';
export type { MonthUsage, UsageTotals } from './player-usage';
export { monthKey, startOfUtcMonth, statsSplit, utcDay, type TokenSplit, type UsageSums } from './rollups';

export function createUsageRepository(db: Db) {
  return { ...operatorUsage(db), ...ledgerRows(db), ...playerUsage(db) };
}
export type UsageRepository = ReturnType<typeof createUsageRepository>;
