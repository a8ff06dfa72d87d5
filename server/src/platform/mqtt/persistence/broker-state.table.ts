// What the embedded MQTT broker keeps across restarts (issue 27): retained messages, persistent sessions (MQTT 3.1.1
// clean session false, MQTT 5 session expiry) and the QoS 1 messages queued for them while they are away. Written by
// the event loop's session store (session-store.ts) in batches, read once at start.
import { blob, index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** the last retained message of each topic (an empty retained publish deletes it) */
export const mqttRetained = sqliteTable('mqtt_retained', {
  topic: text('topic').primaryKey(),
  payload: blob('payload', { mode: 'buffer' }).notNull(),
  qos: integer('qos').notNull(),
  /** MQTT 5 properties of the message (JSON), null for a 3.1.1 publisher's */
  properties: text('properties'),
  /** ms since the epoch when its MQTT 5 message expiry passes; null: never */
  expiresAt: integer('expires_at'),
  /** whose share it counts against (session-store.ts): the publishing identity (`device:42`, `gateway`) and its tenant
   * (`tenant:7`); null for a message kept before shares were counted */
  holder: text('holder'),
  tenant: text('tenant'),
});

/** a persistent session whose client is away: what it subscribed to, and until when it is kept */
export const mqttSessions = sqliteTable('mqtt_sessions', {
  clientId: text('client_id').primaryKey(),
  /** the identity that owns it (`device:42`): only the same identity takes it back */
  identityKey: text('identity_key').notNull(),
  /** JSON [{ topic, qos }] */
  subscriptions: text('subscriptions').notNull(),
  /** ms since the epoch when it ends unless its client returns */
  expiresAt: integer('expires_at').notNull(),
});

/** QoS 1 messages waiting for an away persistent session, in order (bounded per session: session-store.ts) */
export const mqttQueued = sqliteTable(
  'mqtt_queued',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    clientId: text('client_id').notNull(),
    topic: text('topic').notNull(),
    payload: blob('payload', { mode: 'buffer' }).notNull(),
    qos: integer('qos').notNull(),
    properties: text('properties'),
    expiresAt: integer('expires_at'),
  },
  (t) => [index('mqtt_queued_client').on(t.clientId, t.id)],
);
