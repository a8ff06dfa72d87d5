// Gateways' broker state in step (cluster.ts): two or three "gateways" (a session store each over one PostgreSQL
// database, a cluster each on one in-process bus) and a broker stand-in that records what the cluster asks of it.
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../bus/memory.js';
import type { Bus, BusMessage, SubscribeOptions } from '../bus/types.js';
import { createLogger, type Logger } from '../log.js';
import { openPostgres, type PostgresHandle } from '../db/postgres.js';
import { findUp } from '../db/sqlite.js';
import { hasPostgres, testDatabase } from '../db/testing/postgres.js';
import { until } from '../testing/until.js';
import { BrokerCluster, HELD_PART, type ClusterBroker } from './cluster.js';
import { pgBrokerState } from './persistence/pg-persistence.js';
import type { BrokerStatePersistence } from './persistence/persistence.js';
import { SessionStore, type StoredMessage } from './persistence/session-store.js';

const log = createLogger('silent');
const msg = (topic: string, payload: string, qos: 0 | 1 | 2 = 1): StoredMessage => ({
  topic,
  payload: Buffer.from(payload),
  qos,
});

interface Gateway {
  store: SessionStore;
  cluster: BrokerCluster;
  retained: string[];
  delivered: string[];
  released: string[];
}

describe.skipIf(!hasPostgres)('the broker across gateways (cluster.ts)', () => {
  const closing: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of closing.splice(0).reverse()) await c();
  });

  async function deployment() {
    const db: PostgresHandle = await openPostgres({
      url: await testDatabase(),
      migrationsFolder: findUp('drizzle-pg', import.meta.url),
    });
    const bus = createMemoryBus(log);
    closing.push(
      () => db.close(),
      () => bus.close(),
    );
    return { db, bus };
  }

  async function gateway(
    on: { db: PostgresHandle; bus: Bus },
    broker: Partial<ClusterBroker> = {},
    opts: {
      takeWaitMs?: number;
      heartbeatMs?: number;
      log?: Logger;
      /** the gateway's database as it sees it (a stand-in that fails) */
      persistence?: (p: BrokerStatePersistence) => BrokerStatePersistence;
    } = {},
  ): Promise<Gateway> {
    const persistence = pgBrokerState(on.db.pool);
    const store = await SessionStore.open(opts.persistence?.(persistence) ?? persistence);
    const g = { store, retained: [] as string[], delivered: [] as string[], released: [] as string[] } as Gateway;
    g.cluster = new BrokerCluster(
      on.bus,
      store,
      {
        deliverRetained: (m) => void g.retained.push(`${m.topic}=${m.payload.toString()}`),
        deliver: (m) => void g.delivered.push(`${m.topic}=${m.payload.toString()}`),
        release: async (clientId) => void g.released.push(clientId),
        holds: () => false,
        ...broker,
      },
      { log, takeWaitMs: opts.takeWaitMs, heartbeatMs: opts.heartbeatMs, ...(opts.log ? { log: opts.log } : {}) },
    );
    closing.push(
      () => store.close(),
      () => g.cluster.close(),
    );
    return g;
  }
  /**
   * One gateway's view of the deployment's bus whose connection can go: while cut, nothing published reaches it, and
   * what it publishes waits and goes out when the connection is back (as nats.js' reconnect buffer does)
   */
  function cuttable(bus: Bus) {
    let cut = false;
    const waiting: Array<[string, unknown]> = [];
    const listeners: Array<(up: boolean) => void> = [];
    const view: Bus = {
      kind: 'nats',
      publish: (subject, data) => (cut ? void waiting.push([subject, data]) : bus.publish(subject, data)),
      subscribe: <T>(subject: string, handler: (m: BusMessage<T>) => unknown, o?: SubscribeOptions) =>
        bus.subscribe<T>(subject, (m) => (cut ? undefined : handler(m)), o),
      request: (subject, data, o) => bus.request(subject, data, o),
      flush: () => bus.flush(),
      close: async () => {},
      onConnection: (l) => void listeners.push(l),
    };
    return {
      view,
      cut() {
        cut = true;
        for (const l of listeners) l(false);
      },
      restore() {
        cut = false;
        for (const [subject, data] of waiting.splice(0)) bus.publish(subject, data);
        for (const l of listeners) l(true);
      },
    };
  }

  /** every gateway has heard every other */
  const met = (...gs: Gateway[]) => until(() => gs.every((g) => g.cluster.live.length === gs.length - 1), 2000);

  it('applies a retained message kept through one gateway on the others, counted in their shares, and its deletion', async () => {
    const d = await deployment();
    const a = await gateway(d);
    const b = await gateway(d);
    expect(await met(a, b)).toBe(true);
    const holder = { device: 'device:1', tenant: 'tenant:1' };
    expect(a.store.admitRetained(holder, 'd/1/status', 5)).toBeNull();
    expect(a.store.retain(msg('d/1/status', 'hidup'), holder)).toBe(true);
    a.cluster.retained(msg('d/1/status', 'hidup'), a.store.retainedHolder('d/1/status')!);
    expect(await until(() => b.retained.length === 1, 2000)).toBe(true);
    expect(b.retained).toEqual(['d/1/status=hidup']);
    expect(b.store.retainedMessages().map((m) => m.payload.toString())).toEqual(['hidup']);
    expect(b.store.retainedUse({ device: 'device:1' })).toEqual(a.store.retainedUse({ device: 'device:1' }));
    // written once, by A: B has nothing pending
    expect(b.store.pendingWrites).toBe(0);

    a.store.retain(msg('d/1/status', ''));
    a.cluster.retained(msg('d/1/status', ''), holder);
    expect(await until(() => b.retained.length === 2, 2000)).toBe(true);
    expect(b.store.retainedMessages()).toEqual([]);
    expect(b.store.retainedUse({ device: 'device:1' }).count).toBe(0);
  });

  it('queues for a session away from one gateway what every gateway receives, and hands all of it to the taker', async () => {
    const d = await deployment();
    const a = await gateway(d);
    const b = await gateway(d);
    const c = await gateway(d);
    expect(await met(a, b, c)).toBe(true);
    const subs = [{ topic: 'd/1/cmd', qos: 1 }];
    const until_ = Date.now() + 60_000;
    a.store.keep('sesi', 'device:1', subs, until_);
    a.cluster.away('sesi', 'device:1', subs, until_);
    expect(await until(() => b.store.isAway('sesi') && c.store.isAway('sesi'), 2000)).toBe(true);
    for (const [g, text] of [
      [a, 'dari-a'],
      [b, 'dari-b'],
      [c, 'dari-c'],
    ] as const)
      g.store.enqueue(msg('d/1/cmd', text));
    // B takes it: A and C drop their copies and write what they queued first
    expect(b.cluster.needsTake('sesi')).toBe(true);
    await b.cluster.take('sesi', 'device:1');
    expect(a.store.isAway('sesi') || c.store.isAway('sesi')).toBe(false);
    const resumed = await b.store.takeStored('sesi', 'device:1', false);
    expect(resumed?.subscriptions).toEqual(subs);
    expect(resumed?.queued.map((m) => m.payload.toString()).sort()).toEqual(['dari-a', 'dari-b', 'dari-c']);
    expect(a.released).toEqual(['sesi']);
    // its rows end: a gateway starting now finds no session
    await b.store.flush();
    const fresh = await SessionStore.open(pgBrokerState(d.db.pool));
    closing.push(() => fresh.close());
    expect(fresh.isAway('sesi')).toBe(false);
    // another identity neither takes nor ends a session
    a.store.keep('lain', 'device:2', subs, until_);
    await a.store.flush();
    expect(await b.store.takeStored('lain', 'device:3', false)).toBeUndefined();
    expect(await a.store.takeStored('lain', 'device:2', false)).toMatchObject({ subscriptions: subs });
  });

  it('takes without waiting when no other gateway held the client id, and waits a bounded time for a silent one', async () => {
    const d = await deployment();
    // no heartbeat during the test: the gateways know each other from their greetings
    const quiet = { heartbeatMs: 60_000 };
    const a = await gateway(d, {}, quiet);
    // a client id nobody else held: nothing asked, nothing waited for
    expect(a.cluster.needsTake('baru')).toBe(false);
    const b = await gateway(d, { release: () => new Promise(() => {}) }, quiet);
    const c = await gateway(d, { release: () => new Promise(() => {}) }, quiet);
    expect(await met(a, b, c)).toBe(true);
    // B's and C's answers never come: A2 waits its bound, then no longer waits for them
    const a2 = await gateway(d, {}, { ...quiet, takeWaitMs: 150 });
    expect(await until(() => a2.cluster.live.length === 3, 2000)).toBe(true);
    const started = Date.now();
    await a2.cluster.take('x', 'device:1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(a2.cluster.metrics().cluster_take_timeouts).toBe(1);
    // A (which answered) is still live; the silent ones are not waited for until heard again
    expect(a2.cluster.live).toEqual([a.cluster.id]);
    const again = Date.now();
    await a2.cluster.take('y', 'device:1');
    expect(Date.now() - again).toBeLessThan(140);
  });

  it('frees a client id held elsewhere at once when that identity is ending there, and only for that identity', async () => {
    const d = await deployment();
    const a = await gateway(d);
    const b = await gateway(d);
    expect(await met(a, b)).toBe(true);
    b.cluster.opened('ZL1', 'gateway:ZL1');
    b.cluster.opened('ZL2', 'device:7');
    expect(await until(() => a.cluster.holderKey('ZL2') === 'device:7', 2000)).toBe(true);
    expect(a.cluster.holderKey('ZL1')).toBe('gateway:ZL1');
    // ZL1 registered (a change every gateway applies): B ends its connection; A does not wait for B's notice
    a.cluster.endingElsewhere('ZL1', 'gateway:ZL1');
    expect(a.cluster.holderKey('ZL1')).toBeUndefined();
    expect(a.cluster.needsTake('ZL1')).toBe(false);
    // another identity's hold stays
    a.cluster.endingElsewhere('ZL2', 'gateway:ZL2');
    expect(a.cluster.holderKey('ZL2')).toBe('device:7');
  });

  it('tells a gateway that starts which client ids the others hold, in parts, and mends a count that differs by asking again', async () => {
    const d = await deployment();
    const b = await gateway(d, {}, { heartbeatMs: 100 });
    // more than one part of the list
    const n = HELD_PART + 5;
    for (let i = 0; i < n; i++) b.cluster.opened(`c${i}`, `device:${i}`);
    b.cluster.ended('c0', 'device:0');
    const a = await gateway(d, {}, { heartbeatMs: 100 });
    expect(await met(a, b)).toBe(true);
    expect(await until(() => a.cluster.metrics().cluster_held_elsewhere === n - 1, 2000)).toBe(true);
    expect(a.cluster.holderKey('c0')).toBeUndefined();
    expect(a.cluster.holderKey(`c${n - 1}`)).toBe(`device:${n - 1}`);
    expect(a.cluster.needsTake('c7')).toBe(true);

    // A forgets one that B still holds (its end was expected and never came): B's beats say otherwise, A asks again
    a.cluster.endingElsewhere('c7', 'device:7');
    expect(a.cluster.holderKey('c7')).toBeUndefined();
    expect(await until(() => a.cluster.holderKey('c7') === 'device:7', 3000)).toBe(true);
    expect(a.cluster.metrics().cluster_held_resyncs).toBe(1);
    expect(a.cluster.metrics().cluster_held_elsewhere).toBe(n - 1);
    // a client id taken over through A (B lets it go) is A's own, not B's, and no longer counted for B
    expect(a.cluster.needsTake('c8')).toBe(true);
    await a.cluster.take('c8', 'device:8');
    a.cluster.opened('c8', 'device:8');
    expect(a.cluster.holderKey('c8')).toBeUndefined();
    expect(await until(() => b.cluster.holderKey('c8') === 'device:8', 2000)).toBe(true);
    // steady: no more asking
    await new Promise((r) => setTimeout(r, 500));
    expect(a.cluster.metrics().cluster_held_resyncs).toBe(1);
  });

  it('mends what a gateway missed while its bus connection was down: retained messages, away sessions, client ids', async () => {
    const d = await deployment();
    const link = cuttable(d.bus);
    // A's beats would lapse the others after 300 ms of silence: deaf, it lapses nobody
    const a = await gateway({ db: d.db, bus: link.view }, {}, { heartbeatMs: 100 });
    const b = await gateway(d, {}, { takeWaitMs: 150 });
    const c = await gateway(d);
    expect(await met(a, b, c)).toBe(true);
    const holder = { device: 'device:1', tenant: 'tenant:1' };
    const keep = (g: Gateway, topic: string, payload: string) => {
      if (payload !== '') expect(g.store.admitRetained(holder, topic, payload.length)).toBeNull();
      expect(g.store.retain(msg(topic, payload), holder)).toBe(true);
      g.cluster.retained(msg(topic, payload), holder);
    };
    keep(b, 'd/1/ubah', 'satu');
    keep(b, 'd/1/hapus', 'ada');
    const subs = [{ topic: 'd/1/cmd', qos: 1 }];
    const later = Date.now() + 60_000;
    for (const [clientId, key] of [
      ['lama', 'device:1'],
      ['singgah', 'device:3'],
    ] as const) {
      c.store.keep(clientId, key, subs, later);
      c.cluster.away(clientId, key, subs, later);
    }
    const heard = () => a.store.retainedMessages().length === 2 && a.store.isAway('lama') && a.store.isAway('singgah');
    expect(await until(heard, 2000)).toBe(true);
    await c.store.flush();

    link.cut();
    // through B and C, unheard by A: a retained message changed, one deleted, one new; a session gone away from C;
    // two away sessions taken through B (A does not answer: B stops waiting for it), one's client live there, the
    // other's gone again with a clean end
    keep(b, 'd/1/ubah', 'dua');
    keep(b, 'd/1/hapus', '');
    keep(c, 'd/1/baru', 'tiga');
    c.store.keep('pergi', 'device:2', subs, later);
    c.cluster.away('pergi', 'device:2', subs, later);
    await b.cluster.take('lama', 'device:1');
    expect(await b.store.takeStored('lama', 'device:1', false)).toMatchObject({ subscriptions: subs });
    b.cluster.opened('lama', 'device:1');
    await b.cluster.take('singgah', 'device:3');
    await b.store.takeStored('singgah', 'device:3', true);
    b.cluster.opened('singgah', 'device:3');
    b.cluster.ended('singgah', 'device:3');
    // and through A meanwhile: its own retained message, announced once the connection is back
    keep(a, 'd/1/lokal', 'empat');
    await new Promise((r) => setTimeout(r, 500));
    expect(a.cluster.live.sort()).toEqual([b.cluster.id, c.cluster.id].sort());
    const before = a.store.retainedMessages().map((m) => `${m.topic}=${m.payload}`);
    expect(before.sort()).toEqual(['d/1/hapus=ada', 'd/1/lokal=empat', 'd/1/ubah=satu']);

    // B's and C's last changes are still in their write-behind: the resync has them write it before A reads
    link.restore();
    const mended = () => a.cluster.metrics().cluster_resync_retained === 3;
    expect(await until(mended, 3000)).toBe(true);
    expect(
      a.store
        .retainedMessages()
        .map((m) => `${m.topic}=${m.payload}`)
        .sort(),
    ).toEqual(['d/1/baru=tiga', 'd/1/lokal=empat', 'd/1/ubah=dua']);
    // the broker threads get them too (a deletion as an empty payload), after the two heard before the cut
    expect(a.retained.slice(0, 2)).toEqual(['d/1/ubah=satu', 'd/1/hapus=ada']);
    expect(a.retained.slice(2).sort()).toEqual(['d/1/baru=tiga', 'd/1/hapus=', 'd/1/ubah=dua']);
    expect(a.store.retainedUse({ device: 'device:1' }).count).toBe(3);
    // the session that went away from C is queued for here too; those taken through B are not away any more (the
    // live one's copy dropped as B's list of client ids arrived, the ended one's as the database has it no more)
    expect(a.store.isAway('pergi')).toBe(true);
    expect(a.store.isAway('lama')).toBe(false);
    expect(a.store.isAway('singgah')).toBe(false);
    expect(a.cluster.holderKey('lama')).toBe('device:1');
    expect(a.cluster.metrics()).toMatchObject({ cluster_resyncs: 1, cluster_resync_sessions: 2 });
    // what A kept meanwhile reached the others
    expect(await until(() => b.store.retainedMessages().some((m) => m.topic === 'd/1/lokal'), 2000)).toBe(true);
  });

  it('tries the mend again a heartbeat later while its database cannot be read, saying so once', async () => {
    const d = await deployment();
    const link = cuttable(d.bus);
    let down = false;
    const warned: string[] = [];
    const a = await gateway(
      { db: d.db, bus: link.view },
      {},
      {
        heartbeatMs: 100,
        log: { ...log, warn: (m) => void warned.push(m) },
        persistence: (p) => ({
          ...p,
          load: (queued) => (down ? Promise.reject(new Error('unreachable')) : p.load(queued)),
        }),
      },
    );
    const b = await gateway(d);
    expect(await met(a, b)).toBe(true);
    const holder = { device: 'device:1', tenant: 'tenant:1' };
    link.cut();
    expect(b.store.admitRetained(holder, 'd/1/status', 4)).toBeNull();
    expect(b.store.retain(msg('d/1/status', 'baru'), holder)).toBe(true);
    b.cluster.retained(msg('d/1/status', 'baru'), holder);
    // the notice delivered (and not heard by A) before the connection is back
    await d.bus.flush();
    down = true;
    link.restore();
    // three tries at least, one warning
    expect(await until(() => (a.cluster.metrics().cluster_resync_failures ?? 0) >= 3, 3000)).toBe(true);
    expect(a.store.retainedMessages()).toEqual([]);
    down = false;
    expect(await until(() => a.cluster.metrics().cluster_resync_retained === 1, 3000)).toBe(true);
    expect(a.store.retainedMessages().map((m) => `${m.topic}=${m.payload}`)).toEqual(['d/1/status=baru']);
    expect(a.retained).toEqual(['d/1/status=baru']);
    expect(warned.filter((m) => m.includes('could not be read'))).toHaveLength(1);
    // every try counts as a resync
    const m = a.cluster.metrics();
    expect(m.cluster_resyncs).toBe(m.cluster_resync_failures! + 1);
  });

  it("routes a plain publish only to the gateways whose clients' filters match, and stops when they unsubscribe", async () => {
    const d = await deployment();
    const a = await gateway(d);
    const b = await gateway(d);
    expect(await met(a, b)).toBe(true);
    a.cluster.filter('d/+/status', true);
    // a second thread subscribing to the same filter is no news
    a.cluster.filter('d/+/status', true);
    expect(await until(() => b.cluster.metrics().cluster_remote_filters === 1, 2000)).toBe(true);
    b.cluster.route('d/1/data', Buffer.from('{}'), 1);
    b.cluster.route('d/1/status', Buffer.from('ada'), 1);
    expect(await until(() => a.delivered.length === 1, 2000)).toBe(true);
    expect(a.delivered).toEqual(['d/1/status=ada']);
    expect(b.cluster.metrics().cluster_routed).toBe(1);
    a.cluster.filter('d/+/status', false);
    a.cluster.filter('d/+/status', false);
    expect(await until(() => b.cluster.metrics().cluster_remote_filters === 0, 2000)).toBe(true);
    b.cluster.route('d/1/status', Buffer.from('lagi'), 1);
    expect(b.cluster.metrics().cluster_routed).toBe(1);
    // a gateway that starts hears every filter held already
    a.cluster.filter('d/#', true);
    const c = await gateway(d);
    expect(await until(() => c.cluster.metrics().cluster_remote_filters === 1, 2000)).toBe(true);
  });
});
