// Configuration from the environment (DESIGN.md section 8), validated once at start with a clear error on a bad value.
import { z } from 'zod';
import { DEFAULT_BROKER_THREADS } from './mqtt/types.js';
import { sealKeyBytes } from './seal-key.js';

const onOff = z.enum(['on', 'off']);
const port = z.coerce.number().int().min(0).max(65535);

export const ConfigSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  MQTT_PORT: port.default(1883),
  /** broker threads sharing the MQTT listener (more than 1 needs the native helper; see docs/decisions.md) */
  MQTT_THREADS: z.coerce.number().int().min(1).max(16).default(DEFAULT_BROKER_THREADS),
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
  /** failed MQTT CONNECTs per client address within a minute before its CONNECTs are refused unchecked (issue 23) */
  MQTT_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(20),
  /** the key sealing API credentials and refresh tokens: 32 bytes as 64 hex or base64 (seal-key.ts); else SEAL_KEY_FILE */
  SEAL_KEY: z
    .string()
    .refine((v) => sealKeyBytes(v) !== undefined, 'must be 32 bytes as 64 hex characters or base64')
    .optional(),
  /** where the generated sealing key lives (default: beside DATA_DIR, `<DATA_DIR>.seal.key`, mode 0600) */
  SEAL_KEY_FILE: z.string().min(1).optional(),
  /** before issue 23's SEAL_KEY (64 hex only); still read when SEAL_KEY is not set */
  SENTRA_SECRETS_KEY: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters').optional(),
});

export type Config = z.infer<typeof ConfigSchema>;

const SECRET_SETTINGS = new Set(['SEAL_KEY', 'SENTRA_SECRETS_KEY']);

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env, defaults: Partial<Record<keyof Config, string>> = {}): Config {
  const picked: Record<string, string | undefined> = {};
  for (const key of Object.keys(ConfigSchema.shape)) {
    const v = env[key];
    picked[key] = v === undefined || v === '' ? defaults[key as keyof Config] : v;
  }
  const parsed = ConfigSchema.safeParse(picked);
  if (!parsed.success) {
    // a key's value stays out of the message (and so out of logs)
    const shown = (key: string) => (SECRET_SETTINGS.has(key) ? '(hidden)' : JSON.stringify(picked[key]));
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}=${shown(String(i.path[0]))}: ${i.message}`);
    throw new ConfigError(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
