// The networks each account has signed in from (an IPv4 address or an IPv6 /64, as ipKey writes
// them), the most recent few per account; see the table's comment in schema.ts for why.
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { knownSignInNetworks } from '../schema';

export function createKnownNetworksRepository(db: Db) {
  return {
    /** Whether `userId` signed in from `network` at `since` or later. */
    async isKnown(userId: number, network: string, since: Date): Promise<boolean> {
      const [row] = await db
        .select({ network: knownSignInNetworks.network })
        .from(knownSignInNetworks)
        .where(
          and(
            eq(knownSignInNetworks.userId, userId),
            eq(knownSignInNetworks.network, network),
            gt(knownSignInNetworks.lastSignInAt, since),
          ),
        );
      return row !== undefined;
    },

    /**
     * Records a sign-in from `network` and keeps only the account's `keep` most recent networks, in
     * one statement. The delete sees the rows as they were before the upsert, so it spares this
     * network and the `keep - 1` most recent others.
     */
    async remember(userId: number, network: string, now: Date, keep: number): Promise<void> {
      await db.execute(sql`
        with upserted as (
          insert into known_sign_in_networks (user_id, network, last_sign_in_at) values (${userId}, ${network}, ${now.toISOString()}::timestamptz)
          on conflict (user_id, network) do update set last_sign_in_at = excluded.last_sign_in_at
          returning network
        )
        delete from known_sign_in_networks
        where user_id = ${userId}
          and network <> (select network from upserted)
          and network not in (
            select network from known_sign_in_networks
            where user_id = ${userId} and network <> ${network}
            order by last_sign_in_at desc, network
            limit ${Math.max(0, keep - 1)}::int
          )`);
    },

    /** The account's networks, most recent first (tests and the player's data). */
    async list(userId: number): Promise<Array<{ network: string; lastSignInAt: Date }>> {
      return db
        .select({ network: knownSignInNetworks.network, lastSignInAt: knownSignInNetworks.lastSignInAt })
        .from(knownSignInNetworks)
        .where(eq(knownSignInNetworks.userId, userId))
        .orderBy(sql`${knownSignInNetworks.lastSignInAt} desc`);
    },
  };
}
export type KnownNetworksRepository = ReturnType<typeof createKnownNetworksRepository>;
