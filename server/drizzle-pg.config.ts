// drizzle-kit for the PostgreSQL engine: its migrations, generated from the tables derived from the SQLite ones
// (src/schema.pg.ts). `npm run db:generate:pg` also writes the null-id triggers of new tables (pg-null-id.ts).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema.pg.ts',
  out: './drizzle-pg',
});
