// Users table access. Rows are mapped to plain records; password hashes leave this module only
// through `findCredentialsBy*`, which the account service uses to verify a password.
import { and, eq, inArray, isNull, lt, not, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { adminGrants, users } from '../schema';

export interface UserRecord {
  id: number;
  username: string;
  email: string | null;
  isAdmin: boolean;
  tokenBalance: number;
  createdAt: Date;
  lastActive: Date | null;
}

export interface UserCredentials {
  id: number;
  passwordHash: string;
}

const publicColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  isAdmin: users.isAdmin,
  tokenBalance: users.tokenBalance,
  createdAt: users.createdAt,
  lastActive: users.lastActive,
};

/** Postgres unique_violation; thrown when a username or email is taken between check and insert. */
export function isUniqueViolation(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } })?.code ??
    (error as { cause?: { code?: string } })?.cause?.code;
  return code === '23505';
}

export function createUsersRepository(db: Db) {
  return {
    async findById(id: number): Promise<UserRecord | null> {
      const [row] = await db.select(publicColumns).from(users).where(eq(users.id, id));
      return row ?? null;
    },

    /** Every user, oldest account first (the admin users table). */
    async listAll(): Promise<UserRecord[]> {
      return db.select(publicColumns).from(users).orderBy(users.id);
    },

    async isUsernameTaken(username: string, exceptUserId?: number): Promise<boolean> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.username}) = lower(${username})`);
      return Boolean(row && row.id !== exceptUserId);
    },

    async isEmailTaken(email: string, exceptUserId?: number): Promise<boolean> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email})`);
      return Boolean(row && row.id !== exceptUserId);
    },

    /** Login accepts a username or an email, matched case-insensitively. */
    async findCredentialsByLogin(login: string): Promise<UserCredentials | null> {
      const [row] = await db
        .select({ id: users.id, passwordHash: users.passwordHash })
        .from(users)
        .where(or(sql`lower(${users.username}) = lower(${login})`, sql`lower(${users.email}) = lower(${login})`))
        .limit(1);
      return row ?? null;
    },

    async findCredentialsById(id: number): Promise<UserCredentials | null> {
      const [row] = await db
        .select({ id: users.id, passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.id, id));
      return row ?? null;
    },

    async insert(input: {
      username: string;
      email: string;
      passwordHash: string;
      isAdmin: boolean;
    }): Promise<UserRecord> {
      const [row] = await db.insert(users).values(input).returning(publicColumns);
      return row;
    },

    async updateUsername(id: number, username: string): Promise<UserRecord | null> {
      const [row] = await db.update(users).set({ username }).where(eq(users.id, id)).returning(publicColumns);
      return row ?? null;
    },

    async updateEmail(id: number, email: string): Promise<UserRecord | null> {
      const [row] = await db.update(users).set({ email }).where(eq(users.id, id)).returning(publicColumns);
      return row ?? null;
    },

    async updatePasswordHash(id: number, passwordHash: string): Promise<void> {
      await db.update(users).set({ passwordHash }).where(eq(users.id, id));
    },

    /** Sets lastActive unless it was set less than `minIntervalMs` ago (one write a minute at most). */
    async touchLastActive(id: number, now: Date, minIntervalMs: number): Promise<void> {
      const threshold = new Date(now.getTime() - minIntervalMs);
      await db
        .update(users)
        .set({ lastActive: now })
        .where(and(eq(users.id, id), or(isNull(users.lastActive), lt(users.lastActive, threshold))));
    },

    /**
     * Start-up: every name ADMIN_USERNAMES lists is an admin, and admins it no longer lists lose the
     * right, unless it was granted from the command line (admin_grants) and not revoked there.
     */
    async syncAdmins(adminUsernames: string[]): Promise<void> {
      const lowered = adminUsernames.map((name) => name.toLowerCase());
      const listed = inArray(sql`lower(${users.username})`, lowered.length > 0 ? lowered : ['']);
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ isAdmin: false })
          .where(
            and(
              eq(users.isAdmin, true),
              not(listed),
              sql`not exists (select 1 from ${adminGrants} where ${adminGrants.userId} = ${users.id})`,
            ),
          );
        if (lowered.length > 0)
          await tx
            .update(users)
            .set({ isAdmin: true })
            .where(and(listed, eq(users.isAdmin, false)));
      });
    },

    /**
     * `npm run admin`: grants (recorded in admin_grants, which syncAdmins leaves alone) or revokes the
     * right by username, case-insensitively. Answers the account, or null when none has the name.
     */
    async setAdminByCommand(username: string, isAdmin: boolean): Promise<UserRecord | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(users)
          .set({ isAdmin })
          .where(sql`lower(${users.username}) = lower(${username})`)
          .returning(publicColumns);
        if (!row) return null;
        if (isAdmin) await tx.insert(adminGrants).values({ userId: row.id }).onConflictDoNothing();
        else await tx.delete(adminGrants).where(eq(adminGrants.userId, row.id));
        return row;
      });
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
