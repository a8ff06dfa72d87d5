// The deployment's identity: one random id made when the database is first opened. Gateways on one bus prove with it
// that they share this database before they take each other's messages (platform/bus/deployment.ts).
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const deployment = sqliteTable('deployment', {
  id: text('id').primaryKey(),
  createdAt: integer('created_at').notNull(),
});
