// Accounts: players, admin rights granted from the command line, their sessions, sign-up
// captchas, the networks they signed in from and the durable sign-in limits' events.
// Case-insensitive uniqueness lives in expression indexes, so "Alice" and "alice" clash.
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email'),
    passwordHash: text('password_hash').notNull(),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** Purchased tokens left; the purchase flow is not part of the product yet, so it starts at 0. */
    tokenBalance: integer('token_balance').notNull().default(0),
    createdAt: createdAt(),
    lastActive: timestamp('last_active', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    // The admin table sorts by these; username and email sort through the lower() indexes above. A
    // user who never came back was last active when they joined, so "last active" never sorts blank.
    index('users_created_at_idx').on(t.createdAt, t.id),
    index('users_last_active_idx').on(sql`coalesce(${t.lastActive}, ${t.createdAt})`, t.id),
  ],
);

/**
 * Admin rights granted from the command line (`npm run admin -- grant`). An admin without a row here
 * has the right from ADMIN_USERNAMES, which start-up takes away once the list no longer names it;
 * a row keeps it whatever the list says, until `npm run admin -- revoke`.
 */
export const adminGrants = pgTable('admin_grants', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  grantedAt: timestamp('granted_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the cookie token: a leaked table cannot be replayed as cookies. */
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_expires_at_idx').on(t.expiresAt)],
);

export const captchaChallenges = pgTable(
  'captcha_challenges',
  {
    /** SHA-256 of the challenge token kept in the visitor's cookie. */
    tokenHash: text('token_hash').primaryKey(),
    answer: integer('answer').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('captcha_challenges_expires_at_idx').on(t.expiresAt)],
);

/**
 * The networks (an IPv4 address, an IPv6 /64) each account has signed in from successfully: a
 * correct password from one of them passes the account's failed-login lock, so guessing from
 * elsewhere cannot lock the owner out. The most recent few per account, kept for months (not in
 * rate_limit_events, which housekeeping empties after a day); gone with the account.
 */
export const knownSignInNetworks = pgTable(
  'known_sign_in_networks',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    network: text('network').notNull(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.network] })],
);

/** Events counted by the abuse limits (failed logins, registrations); kept in the database so every app instance sees them. */
export const rateLimitEvents = pgTable(
  'rate_limit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('rate_limit_events_lookup_idx').on(t.bucket, t.key, t.createdAt)],
);
