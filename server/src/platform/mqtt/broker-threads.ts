// The broker threads' lifecycle, seen from the event loop: each runs aedes (broker.worker.ts) and listens on its own
// descriptor of the one TCP socket (the first binds it; the event loop keeps a duplicate so that the others, and a
// thread started again after one exited, listen on duplicates of it: the kernel spreads connections over them). A
// thread that exits is replaced at once, its connections gone with it (devices reconnect). What the threads report is
// the broker's business (`onEvent`); this file only starts, restarts, listens and stops them.
import fs from 'node:fs';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../log.js';
import type { nativeFd } from '../native-fd.js';
import { workerEntry } from '../worker-entry.js';
import type { LoopCommand, ThreadEvent, ThreadMessage } from './broker-wire.js';
import { AckLedger } from './held-acks.js';
import { TopicFilters } from './topic-filters.js';

export type V5Properties = { properties?: Record<string, unknown>; expiresAt?: number };

export interface BrokerThread {
  index: number;
  worker: Worker;
  /** subscriptions of this thread's sessions, for publishes of sessions on other threads */
  filters: TopicFilters;
  /** its held acknowledgements (QoS 1 and 2), released once what they acknowledge is stored */
  acks: AckLedger;
  /** runs of packed messages taken since the thread was last told (its handover bound, handover-bound.ts) */
  took: number;
  /** MQTT 5 properties of the first message of the thread's next packed run */
  nextProperties?: V5Properties;
}

export interface BrokerThreadsOptions {
  count: number;
  host: string;
  log: Logger;
  /** the dup helper (several threads need it) */
  native: ReturnType<typeof nativeFd>;
  workerData: {
    debug: boolean;
    maxOutboundBytes: number;
    nativeReads: boolean;
    /** aedes' handlers replaced and its packages patched (broker.worker.ts); false: aedes as it is */
    fastPath: boolean;
    /** TRUST_PROXY's list when MQTT_PROXY_PROTOCOL=on (proxy-protocol.ts) */
    proxyProtocolFrom: string[];
  };
  /** each event a thread reports, in order */
  onEvent(thread: BrokerThread, ev: ThreadEvent): void;
  /** a thread's acknowledgements were released (tell it, once per turn) */
  onReleased(): void;
  /** a thread went (exited, or closed): what it held is gone with it */
  onLost(thread: BrokerThread, err: Error): void;
  /** a filter first subscribed on a thread, or no longer subscribed there (the gateway's interest, cluster.ts) */
  onFilter?(filter: string, added: boolean): void;
  /** what a thread that starts is told first (the retained messages kept, the global read pause) */
  greeting(): LoopCommand[];
}

export class BrokerThreads {
  readonly all: BrokerThread[] = [];
  private readonly entry = workerEntry(import.meta.url, 'broker.worker');
  private boundPort = 0;
  /** the event loop's own descriptor of the listening socket: each (re)started thread listens on a duplicate */
  private listenFd = -1;
  private listening: { resolve: (port: number) => void; reject: (err: Error) => void } | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly o: BrokerThreadsOptions) {
    for (let i = 0; i < o.count; i++) this.all.push(this.start(i));
  }

  get port(): number {
    return this.boundPort;
  }

  send(t: BrokerThread, m: LoopCommand): void {
    t.worker.postMessage(m);
  }

  sendAll(m: LoopCommand): void {
    for (const t of this.all) this.send(t, m);
  }

  /** the first thread binds the port; the others then listen on duplicates of its socket */
  listen(port: number): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.listening = { resolve, reject };
      this.send(this.all[0]!, { t: 'listen', host: this.o.host, port });
    });
  }

  utilization(since?: EventLoopUtilization[]): EventLoopUtilization[] {
    return this.all.map((t, i) =>
      since?.[i] ? t.worker.performance.eventLoopUtilization(since[i]) : t.worker.performance.eventLoopUtilization(),
    );
  }

  /** each thread closes its clients and listener (terminated after 5 s), then the listening descriptor is closed */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all(
        this.all.map(async (t) => {
          const exited = new Promise<void>((resolve) => t.worker.once('exit', () => resolve()));
          const closed = new Promise<void>((resolve) =>
            t.worker.on('message', (m: ThreadMessage) => m.t === 'closed' && resolve()),
          );
          this.send(t, { t: 'close' });
          const timer = setTimeout(() => void t.worker.terminate(), 5000);
          await Promise.race([closed.then(() => exited), exited]);
          clearTimeout(timer);
          this.o.onLost(t, new Error('MQTT broker closed'));
        }),
      );
      if (this.listenFd >= 0) fs.closeSync(this.listenFd);
      this.listenFd = -1;
    })();
    return this.closing;
  }

  private start(index: number): BrokerThread {
    const { log, native } = this.o;
    const worker = new Worker(this.entry.script, { eval: this.entry.eval, workerData: this.o.workerData });
    const thread: BrokerThread = {
      index,
      worker,
      filters: new TopicFilters(this.o.onFilter),
      acks: new AckLedger(this.o.onReleased),
      took: 0,
    };
    for (const m of this.o.greeting()) worker.postMessage(m);
    worker.on('message', (m: ThreadMessage) => {
      if (m.t === 'batch') {
        for (const ev of m.events) this.o.onEvent(thread, ev);
      } else if (m.t === 'listening') {
        this.boundPort = m.port;
        if (this.listenFd < 0 && native) this.listenFd = native.dup(m.fd);
        if (index === 0 && this.listening) {
          for (const t of this.all.slice(1)) this.send(t, { t: 'listenFd', fd: native!.dup(this.listenFd) });
          this.listening.resolve(m.port);
          this.listening = undefined;
        }
      } else if (m.t === 'listenFailed') {
        if (this.listening) this.listening.reject(new Error(m.message));
        else log.error(`MQTT broker thread ${index} could not listen: ${m.message}`);
        this.listening = undefined;
      }
    });
    worker.on('error', (err) => log.error(`MQTT broker thread ${index} failed`, err));
    worker.on('exit', (code) => {
      if (this.all[index] !== thread || this.closing) return;
      // its connections went with it: devices reconnect, to this thread's successor or another one
      log.error(`MQTT broker thread ${index} exited (${code}); starting a new one`);
      this.o.onLost(thread, new Error('MQTT broker thread exited'));
      const next = this.start(index);
      this.all[index] = next;
      if (this.listenFd >= 0) this.send(next, { t: 'listenFd', fd: native!.dup(this.listenFd) });
      else if (this.boundPort) this.send(next, { t: 'listen', host: this.o.host, port: this.boundPort });
    });
    return thread;
  }
}
