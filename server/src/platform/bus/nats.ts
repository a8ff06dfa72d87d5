// The bus over NATS for scale-out mode: several gateway processes share one subject space. JSON on the wire, so any
// NATS client (`nats sub 'tele.>'`) can watch the traffic; a failing responder answers with a header, not a payload.
import { Empty, ErrorCode, headers, type Msg, type NatsConnection, type NatsError } from 'nats';
import type { Logger } from '../log.js';
import os from 'node:os';
import { connectNats, shownNatsUrl } from './nats-connect.js';
import { deploymentPrefix, proveDeployment } from './deployment.js';
import { assertPublishSubject, assertSubscribeSubject } from './subjects.js';
import {
  BusClosedError,
  BusNoRespondersError,
  BusRemoteError,
  BusTimeoutError,
  DEFAULT_NATS_CONNECT_WAIT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type Bus,
  type BusMessage,
  type BusSubscription,
  type SubscribeOptions,
} from './types.js';

const ERROR_HEADER = 'Sentra-Error';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const encode = (data: unknown): Uint8Array => (data === undefined ? Empty : encoder.encode(JSON.stringify(data)));

function decode(bytes: Uint8Array): unknown {
  if (!bytes.length) return undefined;
  const text = decoder.decode(bytes);
  try {
    return JSON.parse(text);
  } catch {
    return text; // published by a foreign client; hand it over as text rather than dropping it
  }
}

export interface NatsBusOptions {
  url: string;
  name?: string;
  /** how long the first connection is retried before the start fails (NATS_CONNECT_TIMEOUT_MS) */
  connectWaitMs?: number;
  /**
   * The deployment this gateway's database belongs to (platform/db/deployment.ts): its subjects live under it, and the
   * start fails when a gateway of another deployment is on the bus (bus/deployment.ts). `what` names the database in
   * that error (DATA_DIR=…).
   */
  deployment?: { id: string; what: string };
}

export async function createNatsBus(opts: NatsBusOptions, log: Logger): Promise<Bus> {
  const nc: NatsConnection = await connectNats(
    { url: opts.url, name: opts.name ?? 'sentra-gateway', waitMs: opts.connectWaitMs ?? DEFAULT_NATS_CONNECT_WAIT_MS },
    log,
  );
  log.info(`bus connected to NATS ${nc.getServer()}`);
  if (opts.deployment) {
    try {
      await proveDeployment(
        nc,
        { deployment: opts.deployment.id, gateway: `${os.hostname()} pid ${process.pid}` },
        log,
        { natsUrl: shownNatsUrl(opts.url), what: opts.deployment.what },
      );
    } catch (err) {
      await nc.close().catch(() => undefined);
      throw err;
    }
  }
  /** this deployment's subjects: every subject the bus is given lives under it on the wire */
  const prefix = opts.deployment ? deploymentPrefix(opts.deployment.id) : '';
  const connection: Array<(up: boolean) => void> = [];
  const tell = (up: boolean) => {
    for (const listener of connection)
      try {
        listener(up);
      } catch (err) {
        log.error('a NATS connection listener failed', err);
      }
  };
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect' || s.type === 'error') log.warn(`NATS ${s.type}`, s.data);
      else if (s.type === 'reconnect') log.info(`NATS reconnected to ${s.data}`);
      if (s.type === 'disconnect') tell(false);
      else if (s.type === 'reconnect') tell(true);
    }
  })().catch(() => undefined);

  let closed = false;

  function respond(m: Msg, value: unknown) {
    if (m.reply && value !== undefined) m.respond(encode(value));
  }

  function failed(m: Msg, err: unknown) {
    log.error(`bus handler failed on ${m.subject}`, err);
    if (!m.reply || nc.isClosed()) return;
    const h = headers();
    h.set(ERROR_HEADER, (err instanceof Error ? err.message : String(err)).slice(0, 500).replace(/[\r\n]/g, ' '));
    m.respond(Empty, { headers: h });
  }

  return {
    kind: 'nats',
    publish(subject, data) {
      assertPublishSubject(subject);
      if (closed) return log.debug(`bus closed: dropped a message on ${subject}`);
      nc.publish(prefix + subject, encode(data));
    },
    subscribe<T>(
      subject: string,
      handler: (msg: BusMessage<T>) => unknown,
      so: SubscribeOptions = {},
    ): BusSubscription {
      assertSubscribeSubject(subject);
      if (closed) return { unsubscribe() {} };
      const sub = nc.subscribe(prefix + subject, {
        queue: so.queue,
        callback: (err: NatsError | null, m: Msg) => {
          if (err) return log.error(`bus subscription ${subject} failed`, err);
          const msg: BusMessage<T> = { subject: m.subject.slice(prefix.length), data: decode(m.data) as T };
          if (m.reply) msg.reply = m.reply;
          try {
            const result = handler(msg);
            if (result instanceof Promise)
              result.then(
                (v) => respond(m, v),
                (e) => failed(m, e),
              );
            else respond(m, result);
          } catch (e) {
            failed(m, e);
          }
        },
      });
      return {
        unsubscribe() {
          if (!sub.isClosed() && !nc.isClosed()) sub.unsubscribe();
        },
      };
    },
    async request<R>(subject: string, data: unknown, ro: { timeoutMs?: number } = {}): Promise<R> {
      assertPublishSubject(subject);
      if (closed) throw new BusClosedError();
      let m: Msg;
      try {
        m = await nc.request(prefix + subject, encode(data), { timeout: ro.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS });
      } catch (err) {
        const code = (err as NatsError).code;
        if (code === ErrorCode.NoResponders) throw new BusNoRespondersError(subject);
        if (code === ErrorCode.Timeout) throw new BusTimeoutError(subject);
        if (code === ErrorCode.ConnectionClosed || code === ErrorCode.ConnectionDraining) throw new BusClosedError();
        throw err;
      }
      const remoteError = m.headers?.get(ERROR_HEADER);
      if (remoteError) throw new BusRemoteError(subject, remoteError);
      return decode(m.data) as R;
    },
    async flush() {
      if (!nc.isClosed()) await nc.flush();
    },
    onConnection(listener) {
      connection.push(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      // drain: subscriptions finish what they received, then published messages reach the server, then it closes
      if (!nc.isClosed()) await nc.drain().catch((err) => log.warn('NATS drain failed', err));
    },
  };
}
