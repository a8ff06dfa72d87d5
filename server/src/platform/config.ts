// Configuration from the environment (docs/conventions.md "Configuration"), validated once at start with a clear error
// on a bad value.
import { z } from 'zod';
import { CHANNEL_SECRETS, CHANNEL_SETTINGS, CHANNELS, isUrlOf } from '@sentra/contracts';
import { DEFAULT_BROKER_THREADS } from './mqtt/types.js';
import { DEFAULT_NATS_CONNECT_WAIT_MS } from './bus/types.js';
import { DEFAULT_MAP_TILE_URL, MAP_TILES_OFF, isTileUrl } from './http/map-tiles.js';
import { parseTrustedProxies } from './http/client-address.js';
import { parseHostAllowList } from './http/host-allow-list.js';
import { sealKeyBytes } from './seal-key.js';

const onOff = z.enum(['on', 'off']);
const port = z.coerce.number().int().min(0).max(65535);

/** a comma-separated setting parsed once by `parse`: its list, or the gateway stops with the parser's reason */
function listSetting<T>(parse: (v: string) => { ok: true; list: T[] } | { ok: false; error: string }, say = '') {
  return z
    .string()
    .optional()
    .transform((v, ctx) => {
      const parsed = parse(v ?? '');
      if (parsed.ok) return parsed.list;
      ctx.addIssue({ code: 'custom', message: `${say}${parsed.error}` });
      return z.NEVER;
    });
}

export const ConfigSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  MQTT_PORT: port.default(1883),
  /**
   * a port of its own for a load balancer's health check, answered off the event loop (200 while it turns, 503 once it
   * has not turned for LIVENESS_STALL_MS; platform/liveness/liveness.ts). Unset: not served (one gateway alone)
   */
  LIVENESS_PORT: port.optional(),
  /** how long the event loop may not turn before the liveness check answers 503 (ms, 200 to 60000; 2000) */
  LIVENESS_STALL_MS: z.coerce.number().int().min(200).max(60_000).default(2_000),
  /**
   * the broker address devices are told to use, `mqtt://host[:port]` or `mqtts://host[:port]` (no path, no user);
   * unset: the host the console was reached at, with MQTT_PORT (modules/devices/broker-address.ts)
   */
  MQTT_PUBLIC_URL: z
    .string()
    .optional()
    .refine(
      (v) => v === undefined || isBrokerUrl(v),
      'must be mqtt://host[:port] or mqtts://host[:port] (the address devices connect to)',
    ),
  /** broker threads sharing the MQTT listener (more than 1 needs the native helper; docs/decisions/mqtt-broker.md) */
  MQTT_THREADS: z.coerce.number().int().min(1).max(16).default(DEFAULT_BROKER_THREADS),
  /** signed-in TCP connections read by the native reader (server/native/io.c) instead of Node's per-socket reads */
  MQTT_NATIVE_READS: onOff.default('on'),
  /** off: the broker threads run aedes' own packet handlers, unpatched (the reference and the fallback for an aedes
   * whose internals moved: 3.1.1 only, no native reader; docs/decisions/broker.md) */
  MQTT_FAST_PATH: onOff.default('on'),
  /** a device's share of the retained store: messages (topics) and bytes (topics and payloads; session-store.ts) */
  MQTT_RETAINED_PER_DEVICE: z.coerce.number().int().min(1).max(1_000_000).default(100),
  MQTT_RETAINED_BYTES_PER_DEVICE: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(1024 * 1024),
  /** a tenant's share of the retained store, over all its devices */
  MQTT_RETAINED_PER_TENANT: z.coerce.number().int().min(1).max(10_000_000).default(10_000),
  MQTT_RETAINED_BYTES_PER_TENANT: z.coerce
    .number()
    .int()
    .min(1024)
    .max(4 * 1024 * 1024 * 1024)
    .default(16 * 1024 * 1024),
  /** bytes a client's connection (TCP or WebSocket) may hold unsent before it is closed: 64 KiB to 256 MiB, 4 MiB */
  MQTT_MAX_OUTBOUND_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .max(256 * 1024 * 1024)
    .default(4 * 1024 * 1024),
  /** a device heard without a connection of its own (LoRa through its network server) is offline after this silence
   * (seconds, 10 to 86400; 900); docs/decisions/presence-lora.md */
  PRESENCE_SILENCE_S: z.coerce.number().int().min(10).max(86_400).default(900),
  DATA_DIR: z.string().min(1).default('./data'),
  /**
   * postgres://user:pass@host:port/db (or postgresql://…; a socket directory as `?host=/run/postgresql`): every table
   * on that PostgreSQL, for gateways on several hosts. Unset: SQLite in DATA_DIR (docs/decisions/storage.md)
   */
  DATABASE_URL: z
    .string()
    .optional()
    .refine(
      (v) => v === undefined || isDatabaseUrl(v),
      'must be postgres://[user[:pass]@]host[:port]/database (or postgresql://…)',
    ),
  /** telemetry kept this many days (older UTC days' points and rollups dropped hourly); 0 keeps everything */
  TELEMETRY_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
  /** connections each gateway keeps to PostgreSQL (DATABASE_URL): 2 to 200 */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(16),
  BUS: z.enum(['memory', 'nats']).default('memory'),
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  /** BUS=nats: how long the start retries an unreachable NATS_URL before it fails with a message (0 = one attempt) */
  NATS_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(DEFAULT_NATS_CONNECT_WAIT_MS),
  DEMO: onOff.default('off'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** a line per rule firing queued, point skipped as evaluated already and state read back (the chaos run's trace) */
  RULES_TRACE: onOff.default('off'),
  /** where the built web console lives; served by the gateway when present */
  WEB_DIST: z.string().optional(),
  /** telemetry transactions on a worker thread (default) or on the event loop */
  WRITER_THREAD: onOff.default('on'),
  /** how long a command waits for the device's reply (default 55 s, inside the 60 s call); end-to-end tests shorten it */
  COMMAND_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).optional(),
  // notification delivery (modules/notifications; docs/decisions/notifications.md). A channel left unset keeps its
  // messages as 'not_configured'; a half-set one stops the start (notificationIssues below).
  // each channel's variables with their rules: its descriptor's (contracts/src/channels/)
  ...CHANNEL_SETTINGS,
  /** time-out of every provider request (connect to answer) */
  NOTIFY_TIMEOUT_MS: z.coerce.number().int().min(200).max(120_000).default(10_000),
  /** attempts before a message is 'failed' for good */
  NOTIFY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(6),
  /** first retry delay; each next one doubles (with jitter), at most 30 min */
  NOTIFY_RETRY_BASE_MS: z.coerce.number().int().min(50).max(3_600_000).default(30_000),
  /** messages per tenant per minute (per gateway); more wait their turn */
  NOTIFY_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  /**
   * the map cards' base tiles: an http(s) URL template with {z}/{x}/{y} (and {s}), or a path on the gateway; by default
   * OpenStreetMap's standard tiles; `off`: no tiles (nothing leaves the network; the bundled land-and-sea layer)
   */
  MAP_TILE_URL: z
    .string()
    .refine(
      (v) => v === MAP_TILES_OFF || isTileUrl(v),
      `an http(s) URL template such as ${DEFAULT_MAP_TILE_URL}, a path starting with /, or ${MAP_TILES_OFF}`,
    )
    .default(DEFAULT_MAP_TILE_URL)
    .transform((v) => (v === MAP_TILES_OFF ? undefined : v)),
  /** hosts a web-service card may fetch from (http/host-allow-list.ts); unset or empty: none */
  WEBSERVICE_ALLOW: listSetting(parseHostAllowList),
  /**
   * the load balancers whose X-Forwarded-For is believed (comma-separated addresses, CIDR ranges or `loopback`,
   * `linklocal`, `uniquelocal`): the sign-in and registration throttles count by the client address they forward.
   * Unset: no proxy is trusted, the connection's peer is the client (http/client-address.ts)
   */
  TRUST_PROXY: listSetting(parseTrustedProxies, 'not a list of addresses: '),
  /**
   * `on`: a TCP connection to the MQTT port from a load balancer named by TRUST_PROXY opens with a PROXY header (v1 or
   * v2, HAProxy's `send-proxy-v2`) naming the device's address, which the MQTT sign-in throttles count by
   */
  MQTT_PROXY_PROTOCOL: onOff.default('off'),
  /** failed MQTT CONNECTs of one username from one client address within a minute before that pair is refused unchecked
   * (and of one username from every address before it is slowed; mqtt-connect-throttle.ts) */
  MQTT_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(20),
  /** CONNECTs a minute from one client address with unknown usernames or without credentials (mqtt-connect-throttle.ts) */
  MQTT_UNKNOWN_CONNECTS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /** the key sealing API credentials and refresh tokens: 32 bytes as 64 hex or base64 (seal-key.ts); else SEAL_KEY_FILE */
  SEAL_KEY: z
    .string()
    .refine((v) => sealKeyBytes(v) !== undefined, 'must be 32 bytes as 64 hex characters or base64')
    .optional(),
  /** where the generated sealing key lives (default: beside DATA_DIR, `<DATA_DIR>.seal.key`, mode 0600) */
  SEAL_KEY_FILE: z.string().min(1).optional(),
  /** before issue 23's SEAL_KEY (64 hex only); still read when SEAL_KEY is not set */
  SENTRA_SECRETS_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters')
    .optional(),
  /** a session unused this long (seconds) ends: default 12 h (docs/decisions/security-access.md) */
  SESSION_IDLE_TIMEOUT_S: z.coerce.number().int().min(1).max(31_536_000).default(43_200),
  /** a session ends this long (seconds) after its sign-in, used or not: default 7 days */
  SESSION_MAX_AGE_S: z.coerce.number().int().min(1).max(31_536_000).default(604_800),
  /** failed sign-ins per account and per client address within LOGIN_THROTTLE_WINDOW_S before 429 */
  LOGIN_THROTTLE_ATTEMPTS: z.coerce.number().int().min(1).max(1_000_000).default(10),
  LOGIN_THROTTLE_WINDOW_S: z.coerce.number().int().min(1).max(86_400).default(60),
  /** self-registrations per client address within REGISTER_THROTTLE_WINDOW_S before 429 */
  REGISTER_THROTTLE_ATTEMPTS: z.coerce.number().int().min(1).max(1_000_000).default(10),
  REGISTER_THROTTLE_WINDOW_S: z.coerce.number().int().min(1).max(86_400).default(3600),
});

/** A broker address for devices: mqtt(s)://host[:port] and nothing else (a path or credentials would be ignored). */
function isBrokerUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (
      isUrlOf(value, ['mqtt:', 'mqtts:']) &&
      !u.username &&
      !u.password &&
      (u.pathname === '' || u.pathname === '/') &&
      !u.search &&
      !u.hash
    );
  } catch {
    return false;
  }
}

function isDatabaseUrl(value: string): boolean {
  try {
    const url = new URL(value);
    // a database name is required; the host may be a socket directory given as ?host=
    return ['postgres:', 'postgresql:'].includes(url.protocol) && url.pathname.length > 1;
  } catch {
    return false;
  }
}

/** Variables whose value never appears in an error message. */
const SECRET_VARIABLES = new Set(['DATABASE_URL', ...CHANNEL_SECRETS]);

/** A channel is configured completely or not at all: half a configuration is a mistake worth stopping for. */
function notificationIssues(c: z.infer<typeof ConfigSchema>, ctx: z.RefinementCtx) {
  // the variables each channel needs: the same list the console shows beside an unconfigured channel
  const groups = CHANNELS.map((ch) => [ch.envName, ch.variables as readonly (keyof typeof c)[]] as const);
  for (const [channel, keys] of groups) {
    const set = keys.filter((k) => c[k] !== undefined);
    if (set.length === 0 || set.length === keys.length) continue;
    for (const k of keys.filter((k) => c[k] === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [k],
        message: `required for ${channel} notifications when ${set.join(', ')} ${set.length > 1 ? 'are' : 'is'} set`,
      });
    }
  }
}

const CheckedConfigSchema = ConfigSchema.superRefine(notificationIssues);

export type Config = z.infer<typeof ConfigSchema>;

const SECRET_SETTINGS = new Set(['SEAL_KEY', 'SENTRA_SECRETS_KEY']);

export class ConfigError extends Error {}

export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  defaults: Partial<Record<keyof Config, string>> = {},
): Config {
  const picked: Record<string, string | undefined> = {};
  for (const key of Object.keys(ConfigSchema.shape)) {
    const v = env[key];
    picked[key] = v === undefined || v === '' ? defaults[key as keyof Config] : v;
  }
  const parsed = CheckedConfigSchema.safeParse(picked);
  if (!parsed.success) {
    // a secret's value stays out of the message (and so out of logs)
    const shown = (key: string) =>
      (SECRET_VARIABLES.has(key) || SECRET_SETTINGS.has(key)) && picked[key] !== undefined
        ? '(hidden)'
        : JSON.stringify(picked[key]);
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}=${shown(String(i.path[0]))}: ${i.message}`);
    throw new ConfigError(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
