// drizzle-kit generates the SQL migrations in server/db/migrations from server/db/schema/ (a file per domain).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema/index.ts',
  out: './server/db/migrations',
});
