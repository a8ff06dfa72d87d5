// Per sensor row of a device (spec 03 "Sensor policy" and the data detail page's Penanda): its policies JSON and its
// tags, keyed by the console's sensor key. Deleted with the device.
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { devices } from '../devices/devices.table.js';

export const sensorSettings = sqliteTable(
  'sensor_settings',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** `<sensor>.<configtype>.<param>` as the console sends it; opaque to the server */
    key: text('key').notNull(),
    /** JSON text (object or array) */
    policies: text('policies').notNull().default('{}'),
    /** JSON text: tag category prefix → values */
    tags: text('tags').notNull().default('{}'),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.key] })],
);
