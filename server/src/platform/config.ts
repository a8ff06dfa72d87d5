// Configuration from the environment (DESIGN.md section 8), validated once at start with a clear error on a bad value.
import { z } from 'zod';
import { DEFAULT_BROKER_THREADS } from './mqtt/types.js';

const onOff = z.enum(['on', 'off']);
const port = z.coerce.number().int().min(0).max(65535);

export const ConfigSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  MQTT_PORT: port.default(1883),
  /** broker threads sharing the MQTT listener (more than 1 needs the native helper; see docs/decisions.md) */
  MQTT_THREADS: z.coerce.number().int().min(1).max(16).default(DEFAULT_BROKER_THREADS),
  /** bytes a client's connection (TCP or WebSocket) may hold unsent before it is closed: 64 KiB to 256 MiB, 4 MiB */
  MQTT_MAX_OUTBOUND_BYTES: z.coerce.number().int().min(64 * 1024).max(256 * 1024 * 1024).default(4 * 1024 * 1024),
  DATA_DIR: z.string().min(1).default('./data'),
  BUS: z.enum(['memory', 'nats']).default('memory'),
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  DEMO: onOff.default('off'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** where the built web console lives; served by the gateway when present */
  WEB_DIST: z.string().optional(),
  /** telemetry transactions on a worker thread (default) or on the event loop */
  WRITER_THREAD: onOff.default('on'),
  /** how long a command waits for the device's reply (default 55 s, inside the 60 s call); end-to-end tests shorten it */
  COMMAND_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).optional(),
});

export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env, defaults: Partial<Record<keyof Config, string>> = {}): Config {
  const picked: Record<string, string | undefined> = {};
  for (const key of Object.keys(ConfigSchema.shape)) {
    const v = env[key];
    picked[key] = v === undefined || v === '' ? defaults[key as keyof Config] : v;
  }
  const parsed = ConfigSchema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}=${JSON.stringify(picked[String(i.path[0])])}: ${i.message}`);
    throw new ConfigError(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
