// The in-process bus of the one-process ("embedded") gateway: NATS subject semantics without a network, delivered
// asynchronously in publish order so a handler can neither block nor crash the publisher.
import type { Logger } from '../log.js';
import { assertPublishSubject, assertSubscribeSubject, SubjectIndex } from './subjects.js';
import {
  BusClosedError,
  BusNoRespondersError,
  BusRemoteError,
  BusTimeoutError,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type Bus,
  type BusMessage,
  type BusSubscription,
  type SubscribeOptions,
} from './types.js';

interface MemorySub {
  subject: string;
  queue?: string;
  handler: (msg: BusMessage<any>) => unknown;
  active: boolean;
}

/** What a failed responder sends back; a class of its own so no user payload can be mistaken for it. */
class RemoteFailure {
  constructor(readonly message: string) {}
}

const INBOX = '_INBOX';

/** how a subject's subscribers take a message, worked out once per subject (kept by the index while they stay) */
interface Plan {
  plain: MemorySub[];
  /** one member per queue group takes each message, in turn (the turn is the group's, over every subject) */
  groups: Array<{ turn: { n: number }; members: MemorySub[] }>;
}

export function createMemoryBus(log: Logger): Bus {
  /** each queue group's turn, shared by every subject it takes */
  const turns = new Map<string, { n: number }>();
  const index = new SubjectIndex<MemorySub, Plan>((matched) => {
    const plan: Plan = { plain: [], groups: [] };
    const groups = new Map<string, MemorySub[]>();
    for (const sub of matched) {
      if (!sub.queue) plan.plain.push(sub);
      else if (groups.has(sub.queue)) groups.get(sub.queue)!.push(sub);
      else groups.set(sub.queue, [sub]);
    }
    for (const [name, members] of groups) {
      let turn = turns.get(name);
      if (!turn) turns.set(name, (turn = { n: 0 }));
      plan.groups.push({ turn, members });
    }
    return plan;
  });
  /** deliveries waiting for the next turn: a subscriber and its message, side by side (no object per delivery) */
  let queue: Array<MemorySub | BusMessage> = [];
  let scheduled = false;
  let published = 0;
  let delivered = 0;
  let flushWaiters: Array<{ upTo: number; resolve: () => void }> = [];
  let closed = false;
  let inboxSeq = 0;
  const pendingRequests = new Set<(err: Error) => void>();

  function run(sub: MemorySub, msg: BusMessage) {
    if (!sub.active) return;
    let result: unknown;
    try {
      result = sub.handler(msg);
    } catch (err) {
      return failed(msg, err);
    }
    if (result instanceof Promise)
      result.then(
        (value) => answer(msg, value),
        (err) => failed(msg, err),
      );
    else answer(msg, result);
  }

  function answer(msg: BusMessage, value: unknown) {
    if (msg.reply && value !== undefined) route(msg.reply, value);
  }

  function failed(msg: BusMessage, err: unknown) {
    log.error(`bus handler failed on ${msg.subject}`, err);
    if (msg.reply) route(msg.reply, new RemoteFailure(err instanceof Error ? err.message : String(err)));
  }

  function drain() {
    scheduled = false;
    // bounded per turn so a handler publishing in a loop still lets I/O run between batches
    const batch = queue;
    queue = [];
    for (let k = 0; k < batch.length; k += 2) {
      run(batch[k] as MemorySub, batch[k + 1] as BusMessage);
      delivered++;
    }
    if (flushWaiters.length) {
      const still = [];
      for (const w of flushWaiters) w.upTo <= delivered ? w.resolve() : still.push(w);
      flushWaiters = still;
    }
    if (queue.length) schedule();
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    setImmediate(drain);
  }

  /** hands a message to every plain subscriber and one member per queue group; answers how many got it */
  function route(subject: string, data: unknown, reply?: string): number {
    const { plain, groups } = index.match(subject);
    const count = plain.length + groups.length;
    if (count === 0) return 0;
    const msg: BusMessage = reply ? { subject, data, reply } : { subject, data };
    for (const sub of plain) queue.push(sub, msg);
    for (const { turn, members } of groups) queue.push(members[turn.n++ % members.length]!, msg);
    published += count;
    schedule();
    return count;
  }

  function subscribe<T>(
    subject: string,
    handler: (msg: BusMessage<T>) => unknown,
    opts: SubscribeOptions = {},
  ): BusSubscription {
    assertSubscribeSubject(subject);
    if (closed) return { unsubscribe() {} };
    const sub: MemorySub = { subject, queue: opts.queue, handler, active: true };
    index.add(subject, sub);
    return {
      unsubscribe() {
        if (!sub.active) return;
        sub.active = false;
        index.remove(subject, sub);
      },
    };
  }

  return {
    kind: 'memory',
    publish(subject, data) {
      // a subject already matched was checked when it was first published
      if (!index.knows(subject)) assertPublishSubject(subject);
      if (closed) return log.debug(`bus closed: dropped a message on ${subject}`);
      route(subject, data);
    },
    subscribe,
    request<R>(subject: string, data: unknown, opts: { timeoutMs?: number } = {}): Promise<R> {
      assertPublishSubject(subject);
      if (closed) return Promise.reject(new BusClosedError());
      return new Promise<R>((resolve, reject) => {
        const inbox = `${INBOX}.${++inboxSeq}`;
        const settle = (fn: () => void) => {
          clearTimeout(timer);
          inboxSub.unsubscribe();
          pendingRequests.delete(abort);
          fn();
        };
        const abort = (err: Error) => settle(() => reject(err));
        const inboxSub = subscribe(inbox, (msg) => {
          if (msg.data instanceof RemoteFailure) abort(new BusRemoteError(subject, msg.data.message));
          else settle(() => resolve(msg.data as R));
        });
        const timer = setTimeout(
          () => abort(new BusTimeoutError(subject)),
          opts.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
        );
        pendingRequests.add(abort);
        if (route(subject, data, inbox) === 0) abort(new BusNoRespondersError(subject));
      });
    },
    flush() {
      if (delivered >= published) return Promise.resolve();
      return new Promise<void>((resolve) => flushWaiters.push({ upTo: published, resolve }));
    },
    async close() {
      if (closed) return;
      await this.flush();
      closed = true;
      for (const abort of [...pendingRequests]) abort(new BusClosedError());
    },
  };
}
