import { defineConfig } from 'drizzle-kit';

// The PostgreSQL schema's migrations (DATABASE_URL=postgres://…): `npm run db:generate:postgres`.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/postgres/schema.ts',
  out: './src/db/postgres/migrations',
});
