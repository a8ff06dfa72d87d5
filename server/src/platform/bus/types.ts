// The bus: how telemetry, commands, rule and task events travel between parts of the gateway (and between gateways
// in scale-out mode). Subjects are NATS-style: dot-separated tokens, `*` matches one token, `>` the rest.
export interface BusMessage<T = unknown> {
  subject: string;
  data: T;
  /** set for requests: answer with `reply` (or by returning a value from the handler) */
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
  /** fire and forget; `data` must be JSON-serialisable and is read-only for subscribers */
  publish(subject: string, data: unknown): void;
  /** a handler's return value (or resolved promise) answers a request */
  subscribe<T = unknown>(subject: string, handler: (msg: BusMessage<T>) => unknown, opts?: SubscribeOptions): BusSubscription;
  /** one answer or a rejection after `timeoutMs` (BusTimeoutError) or when nobody listens (BusNoRespondersError) */
  request<R = unknown>(subject: string, data: unknown, opts?: { timeoutMs?: number }): Promise<R>;
  /** resolves when everything published so far has been handed to the transport */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export class BusTimeoutError extends Error {
  constructor(subject: string) {
    super(`bus request on ${subject} timed out`);
  }
}
export class BusNoRespondersError extends Error {
  constructor(subject: string) {
    super(`no responders on ${subject}`);
  }
}
