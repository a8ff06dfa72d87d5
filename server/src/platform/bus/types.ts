// The bus: how telemetry, commands, rule and task events travel between parts of the gateway (and between gateways
// in scale-out mode). Subjects are NATS-style: dot-separated tokens, `*` matches one token, `>` the rest.
export interface BusMessage<T = unknown> {
  subject: string;
  data: T;
  /** set for requests; the handler answers by returning a value (or a resolved promise) other than `undefined` */
  reply?: string;
}

export interface BusSubscription {
  unsubscribe(): void;
}

export interface SubscribeOptions {
  /** queue group: each message goes to one member of the group */
  queue?: string;
}

export interface Bus {
  readonly kind: 'memory' | 'nats';
  /** fire and forget; `data` must be JSON-serialisable and is read-only for subscribers. Dropped after close. */
  publish(subject: string, data: unknown): void;
  /**
   * Handlers run asynchronously, in publish order per subject; a throw or rejection is logged and never reaches the
   * publisher. For a request, the returned value answers it, and a throw answers it with a BusRemoteError.
   */
  subscribe<T = unknown>(
    subject: string,
    handler: (msg: BusMessage<T>) => unknown,
    opts?: SubscribeOptions,
  ): BusSubscription;
  /** one answer, or a rejection: BusTimeoutError after `timeoutMs`, BusNoRespondersError when nobody listens */
  request<R = unknown>(subject: string, data: unknown, opts?: { timeoutMs?: number }): Promise<R>;
  /** resolves when everything published so far has been handed to the transport (memory: delivered) */
  flush(): Promise<void>;
  /** delivers what is in flight, then stops; idempotent */
  close(): Promise<void>;
  /**
   * Hears the transport's connection go (`false`) and come back (`true`): what was published to this process
   * meanwhile never reaches it (core NATS keeps nothing). Absent where the connection cannot go (the memory bus).
   */
  onConnection?(listener: (up: boolean) => void): void;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 5000;
/** BUS=nats: how long the first connection to NATS_URL is retried before the start fails (NATS_CONNECT_TIMEOUT_MS) */
export const DEFAULT_NATS_CONNECT_WAIT_MS = 30_000;

export class BusTimeoutError extends Error {
  constructor(subject: string) {
    super(`bus request on ${subject} timed out`);
    this.name = 'BusTimeoutError';
  }
}
export class BusNoRespondersError extends Error {
  constructor(subject: string) {
    super(`no responders on ${subject}`);
    this.name = 'BusNoRespondersError';
  }
}
/** the responder threw: its message travels back instead of leaving the requester to time out */
export class BusRemoteError extends Error {
  constructor(subject: string, message: string) {
    super(`responder on ${subject} failed: ${message}`);
    this.name = 'BusRemoteError';
  }
}
export class BusClosedError extends Error {
  constructor() {
    super('bus is closed');
    this.name = 'BusClosedError';
  }
}
