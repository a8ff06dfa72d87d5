// Every table of every domain, for drizzle's typed queries and drizzle-kit's migration generator.
export * from './modules/auth/auth.table.js';
export * from './modules/apps/apps.table.js';
export * from './modules/users/users.table.js';
export * from './modules/dashboards/dashboards.table.js';
export * from './modules/roles/roles.table.js';
export * from './modules/credentials/credentials.table.js';
export * from './modules/lora/lora.table.js';
export * from './modules/tags/tags.table.js';
export * from './modules/devices/devices.table.js';
export * from './modules/telemetry/telemetry.table.js';
export * from './modules/states/states.table.js';
export * from './modules/telemetry/sensor-settings.table.js';
export * from './modules/notifications/notifications.table.js';
export * from './modules/rules/rules.table.js';
export * from './modules/tasks/tasks.table.js';
export * from './platform/mqtt/persistence/broker-state.table.js';
export * from './platform/db/deployment.table.js';
