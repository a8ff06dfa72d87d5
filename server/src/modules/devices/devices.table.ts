// The device registry: one row per device of any family, with the identity columns the broker authenticates by,
// the activation tokens of Sentra end devices, and the gateway UIDs heard on gw/<uid>/up.
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { applications } from '../apps/apps.table.js';
import { loraServers } from '../lora/lora.table.js';

export const devices = sqliteTable(
  'devices',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    appId: integer('app_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** family code (docs/conventions.md "Codes of the domain") */
    category: integer('category').notNull(),
    categoryText: text('category_text').notNull().default('Dummy'),
    deviceType: text('device_type').notNull(),
    name: text('name').notNull(),
    label: text('label'),
    serialNumber: text('serial_number').notNull(),
    description: text('description'),
    latitude: real('latitude'),
    longitude: real('longitude'),
    /** JSON text (object or array) */
    sensors: text('sensors').notNull().default('{}'),
    /** JSON text: tag category prefix → values */
    tags: text('tags').notNull().default('{}'),
    firmwareVersion: text('firmware_version').notNull().default('1.0'),
    online: integer('online', { mode: 'boolean' }).notNull().default(false),
    lastOnlineTs: integer('last_online_ts'),
    lastOfflineTs: integer('last_offline_ts'),
    disabled: integer('disabled', { mode: 'boolean' }).notNull().default(false),
    /** serial gateways: their UID, platform-wide unique (the broker and gw/<uid>/... know no application) */
    uid: text('uid'),
    /** MQTT and Tasmota devices: the generated broker username */
    brokerUsername: text('broker_username'),
    /**
     * MQTT and Tasmota devices: their generated password; serial gateways: the secret made at activation. Only
     * `sha256$<hex>` of it (crypto.ts hashBrokerSecret): shown once, regenerable. A serial gateway without one (added
     * before issue 23) cannot sign in until a secret is regenerated for it.
     */
    brokerPassword: text('broker_password'),
    /** Tasmota: its topic, platform-wide unique */
    topic: text('topic'),
    /** Sentra end devices: the activation token they sign in with */
    tokenId: integer('token_id'),
    /** LoRa */
    devEui: text('dev_eui'),
    networkServerId: integer('network_server_id').references(() => loraServers.id),
    /** the family's other fields (OTAA key, MQTT mode and details, Emma and Imou ids), JSON text */
    details: text('details').notNull().default('{}'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    // the list pages newest first inside one application
    index('devices_app_id').on(t.appId, t.id),
    uniqueIndex('devices_app_serial').on(t.appId, t.serialNumber),
    index('devices_app_online').on(t.appId, t.online),
    index('devices_app_category').on(t.appId, t.category),
    index('devices_app_type').on(t.appId, t.deviceType),
    uniqueIndex('devices_uid').on(t.uid),
    uniqueIndex('devices_broker_username').on(t.brokerUsername),
    uniqueIndex('devices_topic').on(t.topic),
    uniqueIndex('devices_token').on(t.tokenId),
    uniqueIndex('devices_app_dev_eui').on(t.appId, t.devEui),
    index('devices_network_server').on(t.networkServerId),
  ],
);

/** Credentials tokens of Sentra end devices (provision/k/gen); only the hash is kept. */
export const deviceTokens = sqliteTable(
  'device_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    appId: integer('app_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: integer('created_at').notNull(),
    /** first connection to the broker with this token: provision/k/check succeeds from then on */
    connectedAt: integer('connected_at'),
  },
  (t) => [uniqueIndex('device_tokens_hash').on(t.tokenHash)],
);

/** Gateway UIDs heard on gw/<uid>/up: the UID check of the activation screens. */
/** A device as the registry stores it (the families, the broker authority and the command path read it). */
export type DeviceRow = typeof devices.$inferSelect;

export const gatewaySightings = sqliteTable('gateway_sightings', {
  uid: text('uid').primaryKey(),
  firstTs: integer('first_ts').notNull(),
  lastTs: integer('last_ts').notNull(),
});
