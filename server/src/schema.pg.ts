// The PostgreSQL tables, derived from schema.ts (platform/db/pg-schema.ts), for drizzle-kit's PostgreSQL migration
// generator (drizzle-pg.config.ts). drizzle-kit reads named exports only, hence the list: a table added to schema.ts
// is added here too (pg-schema.test.ts says which one is missing).
import * as schema from './schema.js';
import { pgSchemaFrom } from './platform/db/pg-schema.js';

export const {
  accounts,
  applications,
  credentials,
  dashboards,
  deployment,
  deviceStateHistory,
  deviceStates,
  deviceTokens,
  devices,
  gatewaySightings,
  loraServers,
  mqttQueued,
  mqttRetained,
  mqttSessions,
  notificationAttempts,
  notificationOutbox,
  refreshTokens,
  retiredRefreshTokens,
  roleNavs,
  roles,
  ruleStates,
  rules,
  sensorSettings,
  sessions,
  tagCategories,
  tagDefinitions,
  taskEvents,
  tasks,
  telemetrySeries,
  telemetryWriterState,
  tenants,
} = pgSchemaFrom(schema);
