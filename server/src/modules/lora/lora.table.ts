// LoRa network servers of an application: the entries LoRa devices name by network_server_id.
import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { applications } from '../apps/apps.table.js';

export const loraServers = sqliteTable(
  'lora_servers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    appId: integer('app_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** AA:BB:CC:DD:EE:FF (or an 8-byte EUI), unique in the application */
    mac: text('mac').notNull(),
    name: text('name').notNull(),
    server: text('server').notNull(),
    /** the network server's own application id (ChirpStack v4: a UUID, lower case): its MQTT integration's topics
     * carry it (application/<uuid>/device/<devEui>/...) instead of Sentra's numeric application id */
    applicationUuid: text('application_uuid'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('lora_servers_app_mac').on(t.appId, t.mac)],
);
