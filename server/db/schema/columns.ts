// Column types and defaults the tables share.
import { bigint, customType, timestamp } from 'drizzle-orm/pg-core';

/** Raw bytes (pictures): Buffer in, Buffer out on both PGlite and node-postgres. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/** A rollup's count: a bigint read as a number, zero to begin with. */
export const counter = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);
