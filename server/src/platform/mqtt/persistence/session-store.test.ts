// The session store on both engines: its memory logic against each persistence (SQLite, PostgreSQL), a restart being a
// new store over the same database. The PostgreSQL outage runs against a cluster of its own (stopped and started).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../../schema.js';
import { openPostgres, type PostgresHandle } from '../../db/postgres.js';
import { findUp, openDb } from '../../db/sqlite.js';
import { hasPostgres, startPostgres, testDatabase, type Postgres } from '../../db/testing/postgres.js';
import type { BrokerStateChange, BrokerStatePersistence } from './persistence.js';
import { pgBrokerState } from './pg-persistence.js';
import { sqliteBrokerState } from './sqlite-persistence.js';
import {
  filterMatches,
  MAX_QUEUED_MESSAGES,
  MAX_RETAINED_BYTES,
  MAX_SESSIONS_PER_IDENTITY,
  SessionStore,
  type RetainedHolder,
  type RetainedLimits,
} from './session-store.js';

/** one database of an engine: a persistence over it per "gateway" */
interface Engine {
  persistence(): BrokerStatePersistence;
  /** a retained message kept before holders were recorded */
  legacyRetained(topic: string): Promise<void>;
  /** statements the flushes ran on it (PostgreSQL: round trips) */
  statements: number;
  close(): Promise<void>;
}

async function sqliteEngine(): Promise<Engine> {
  const handle = openDb({ dataDir: ':memory:', schema, migrationsFolder: findUp('drizzle', import.meta.url) });
  return {
    persistence: () => sqliteBrokerState(handle.sqlite),
    legacyRetained: async (topic) =>
      void handle.sqlite.prepare("INSERT INTO mqtt_retained (topic, payload, qos) VALUES (?, x'01', 0)").run(topic),
    statements: 0,
    close: async () => handle.close(),
  };
}

/** the connections the pool hands out (a flush runs on one) count the statements run on them; the pool's own
 * `query` (reads at start) takes the callback form, left as it is */
function counting(h: PostgresHandle, engine: { statements: number }) {
  type Client = { query: (...a: unknown[]) => unknown; counted?: boolean };
  const pool = h.pool as unknown as { connect: (...a: unknown[]) => unknown };
  const connect = pool.connect.bind(pool);
  pool.connect = (...args: unknown[]) => {
    if (args.length > 0) return connect(...args);
    return (connect() as Promise<Client>).then((client) => {
      if (!client.counted) {
        const query = client.query.bind(client);
        client.query = (...a: unknown[]) => (engine.statements++, query(...a));
        client.counted = true;
      }
      return client;
    });
  };
}

async function postgresEngine(url?: string): Promise<Engine> {
  const h = await openPostgres({
    url: url ?? (await testDatabase()),
    migrationsFolder: findUp('drizzle-pg', import.meta.url),
  });
  const engine: Engine = {
    persistence: () => pgBrokerState(h.pool),
    legacyRetained: async (topic) =>
      void (await h.pool.query("INSERT INTO mqtt_retained (topic, payload, qos) VALUES ($1, '\\x01', 0)", [topic])),
    statements: 0,
    close: () => h.close(),
  };
  counting(h, engine);
  return engine;
}

const ENGINES = [
  { name: 'SQLite', open: sqliteEngine, skip: false },
  { name: 'PostgreSQL', open: () => postgresEngine(), skip: !hasPostgres },
];

const msg = (topic: string, payload: string, qos: 0 | 1 | 2 = 1) => ({ topic, payload: Buffer.from(payload), qos });

/** a store over the same database that writes nothing: what a restart would read, looked at without changing it */
const lookAt = (e: Engine) => SessionStore.open({ ...e.persistence(), write: async () => {} });

/** what a store holds, to compare a store with one restarted from its database */
function contents(s: SessionStore, clients: string[], identity: string) {
  return {
    retained: s
      .retainedMessages()
      .map((m) => `${m.topic}=${m.payload.toString()}`)
      .sort(),
    size: s.size,
    sessions: clients.map((c) => {
      const r = s.take(c, identity, false);
      return r && { subscriptions: r.subscriptions, queued: r.queued.map((m) => m.payload.toString()) };
    }),
  };
}

for (const engine of ENGINES)
  describe.skipIf(engine.skip)(`on ${engine.name}`, () => {
    const opened: Engine[] = [];
    const stores: SessionStore[] = [];
    afterEach(async () => {
      for (const s of stores.splice(0)) await s.close();
      for (const o of opened.splice(0)) await o.close();
    });
    /** a fresh database */
    async function fresh() {
      const e = await engine.open();
      opened.push(e);
      return e;
    }
    /** a store over `on`'s database (a gateway starting on it) */
    async function open(on: Engine, now?: () => number, limits?: RetainedLimits) {
      const s = await SessionStore.open(on.persistence(), { now, limits });
      stores.push(s);
      return s;
    }
    /** a store over a fresh database */
    const db = fresh;

    describe('the broker session store', () => {
      it('matches MQTT filters', () => {
        expect(filterMatches('d/+/cmd', 'd/4/cmd')).toBe(true);
        expect(filterMatches('d/#', 'd/4/cmd')).toBe(true);
        expect(filterMatches('d/#', 'd')).toBe(true);
        expect(filterMatches('d/+', 'd/4/cmd')).toBe(false);
        expect(filterMatches('#', '$SYS/x')).toBe(false);
        expect(filterMatches('d/4', 'd/4')).toBe(true);
      });

      it('keeps retained messages and away sessions with their queued QoS 1 messages across a restart (a new store on the same database)', async () => {
        const d = await db();
        let now = 1000;
        const first = await open(d, () => now);
        first.retain(msg('t/a', 'tetap'));
        first.retain(msg('t/b', 'hapus'));
        first.retain(msg('t/b', ''));
        first.keep('c1', 'device:1', [{ topic: 'd/1/cmd', qos: 1 }], now + 60_000);
        first.enqueue(msg('d/1/cmd', 'satu'));
        first.enqueue(msg('d/1/cmd', 'qos0', 0));
        first.enqueue(msg('d/2/cmd', 'lain'));
        await first.close();

        const second = await open(d, () => now);
        expect(second.retainedMessages().map((m) => [m.topic, m.payload.toString()])).toEqual([['t/a', 'tetap']]);
        expect(second.awaits('d/1/cmd')).toBe(true);
        expect(second.awaits('d/1/cmd', 'device:2')).toBe(false);
        // another identity with the client id neither gets nor ends it
        expect(second.take('c1', 'device:2', false)).toBeUndefined();
        second.keep('c1', 'device:2', [{ topic: 'd/2/cmd', qos: 1 }], now + 60_000);
        expect(second.awaits('d/2/cmd')).toBe(false);
        const resumed = second.take('c1', 'device:1', false)!;
        expect(resumed.subscriptions).toEqual([{ topic: 'd/1/cmd', qos: 1 }]);
        expect(resumed.queued.map((m) => m.payload.toString())).toEqual(['satu']);
        await second.close();
        // taken: gone from the database too
        now += 1;
        expect((await open(d, () => now)).size).toEqual({ sessions: 0, queued: 0, retained: 1 });
      });

      it(`bounds a session's queue at ${MAX_QUEUED_MESSAGES} messages, dropping the oldest and counting them`, async () => {
        const s = await open(await db());
        s.keep('c1', 'device:1', [{ topic: 'd/1/#', qos: 1 }], Date.now() + 60_000);
        for (let i = 0; i < MAX_QUEUED_MESSAGES + 5; i++) s.enqueue(msg('d/1/cmd', `m${i}`));
        expect(s.counters.queued_dropped).toBe(5);
        const queued = s.take('c1', 'device:1', false)!.queued;
        expect(queued).toHaveLength(MAX_QUEUED_MESSAGES);
        expect(queued[0]!.payload.toString()).toBe('m5');
      });

      it('bounds queued bytes at 1 MiB per session', async () => {
        const s = await open(await db());
        s.keep('c1', 'device:1', [{ topic: 'd/1/#', qos: 1 }], Date.now() + 60_000);
        const big = 'x'.repeat(300 * 1024);
        for (let i = 0; i < 5; i++) s.enqueue(msg('d/1/cmd', big + i));
        expect(s.take('c1', 'device:1', false)!.queued.map((m) => m.payload.toString().slice(-1))).toEqual([
          '2',
          '3',
          '4',
        ]);
      });

      it('ends a session on a clean connect, and when its expiry passes', async () => {
        let now = 0;
        const s = await open(await db(), () => now);
        s.keep('c1', 'device:1', [{ topic: 'a', qos: 1 }], 10_000);
        expect(s.take('c1', 'device:1', true)).toBeUndefined();
        expect(s.size.sessions).toBe(0);
        s.keep('c2', 'device:1', [{ topic: 'a', qos: 1 }], 10_000);
        now = 10_001;
        s.expire();
        expect(s.size.sessions).toBe(0);
        expect(s.counters.sessions_expired).toBe(1);
      });

      it(`holds at most ${MAX_SESSIONS_PER_IDENTITY} away sessions per identity, ending the oldest`, async () => {
        const s = await open(await db());
        for (let i = 0; i < MAX_SESSIONS_PER_IDENTITY + 2; i++)
          s.keep(`c${i}`, 'device:1', [{ topic: 'a', qos: 1 }], Date.now() + 60_000);
        expect(s.size.sessions).toBe(MAX_SESSIONS_PER_IDENTITY);
        expect(s.take('c0', 'device:1', false)).toBeUndefined();
        expect(s.take(`c${MAX_SESSIONS_PER_IDENTITY + 1}`, 'device:1', false)).toBeDefined();
      });

      it('drops a queued copy on request (a command past its time-out), and requeues what was in flight first', async () => {
        const s = await open(await db());
        s.keep('c1', 'device:1', [{ topic: 'd/1/cmd', qos: 1 }], Date.now() + 60_000);
        s.enqueue(msg('d/1/cmd', 'a'));
        s.enqueue(msg('d/1/cmd', 'b'));
        expect(s.unqueue('d/1/cmd', Buffer.from('a'))).toBe(true);
        expect(s.unqueue('d/1/cmd', Buffer.from('a'))).toBe(false);
        s.requeue('c1', [msg('d/1/cmd', 'terbang')]);
        expect(s.take('c1', 'device:1', false)!.queued.map((m) => m.payload.toString())).toEqual(['terbang', 'b']);
      });

      it('keeps retained messages up to MAX_RETAINED_BYTES, refusing and counting one beyond it; a replaced one frees its bytes', async () => {
        const s = await open(await db());
        const mb = 'x'.repeat(1024 * 1024);
        for (let i = 0; i < MAX_RETAINED_BYTES / (1024 * 1024) - 1; i++) s.retain(msg(`t/${i}`, mb));
        s.retain(msg('t/lagi', mb + 'yy'));
        expect(s.counters.retained_refused).toBe(1);
        s.retain(msg('t/0', ''));
        s.retain(msg('t/lagi', mb));
        expect(s.counters.retained_refused).toBe(1);
        expect(s.retainedMessages().some((m) => m.topic === 't/lagi')).toBe(true);
      });

      it('does not deliver an expired retained or queued message', async () => {
        let now = 0;
        const s = await open(await db(), () => now);
        s.retain({ ...msg('t', 'basi'), expiresAt: 500 });
        s.keep('c1', 'device:1', [{ topic: 'd/1/cmd', qos: 1 }], 60_000);
        s.enqueue({ ...msg('d/1/cmd', 'basi'), expiresAt: 500 });
        s.enqueue(msg('d/1/cmd', 'segar'));
        now = 600;
        expect(s.retainedMessages()).toEqual([]);
        expect(s.take('c1', 'device:1', false)!.queued.map((m) => m.payload.toString())).toEqual(['segar']);
      });
    });

    describe('shares of the retained store', () => {
      const limits: RetainedLimits = {
        device: { count: 3, bytes: 1000 },
        tenant: { count: 5, bytes: 2000 },
        platform: { count: 12, bytes: 100_000 },
      };
      const dev = (n: number, tenant = 1): RetainedHolder => ({ device: `device:${n}`, tenant: `tenant:${tenant}` });
      /** a device's retained publish as the broker makes it: asked first, then arriving */
      function publish(s: SessionStore, holder: RetainedHolder, topic: string, payload: string) {
        const refused = s.admitRetained(holder, topic, Buffer.byteLength(payload));
        if (refused === null) s.retain(msg(topic, payload), holder);
        return refused;
      }

      it("keeps a device's retained messages within its count and bytes, a replacement counting once", async () => {
        const s = await open(await db(), Date.now, limits);
        for (const t of ['d/1/a', 'd/1/b', 'd/1/c']) expect(publish(s, dev(1), t, 'x')).toBeNull();
        expect(publish(s, dev(1), 'd/1/d', 'x')).toBe('device');
        expect(publish(s, dev(1), 'd/1/a', 'y'.repeat(500))).toBeNull(); // replaces a: still three
        expect(publish(s, dev(1), 'd/1/b', 'y'.repeat(600))).toBe('device'); // 1000 bytes a device at most
        expect(s.retainedUse(dev(1))).toEqual({ count: 3, bytes: 5 + 500 + 5 + 1 + 5 + 1 });
        publish(s, dev(1), 'd/1/c', ''); // deleted: room again
        expect(publish(s, dev(1), 'd/1/d', 'x')).toBeNull();
        expect(s.counters).toMatchObject({ retained_refused: 2, retained_refused_device: 2 });
      });

      it("keeps a tenant's within its share, whatever its devices, and never touches another tenant's", async () => {
        const s = await open(await db(), Date.now, limits);
        expect(publish(s, dev(9, 2), 'd/9/kept', 'milik tenant 2')).toBeNull();
        for (let d = 1; d <= 3; d++) for (let i = 0; i < 3; i++) publish(s, dev(d), `d/${d}/${i}`, 'x');
        expect(s.retainedUse({ tenant: 'tenant:1' }).count).toBe(5);
        expect(s.counters.retained_refused_tenant).toBe(4);
        expect(publish(s, dev(9, 2), 'd/9/lagi', 'y')).toBeNull();
        expect(s.retainedMessages().map((m) => m.topic)).toContain('d/9/kept');
      });

      it('past three quarters of the platform, refuses a tenant over its fair part while a tenant under it still gets room', async () => {
        const roomy: RetainedLimits = {
          ...limits,
          tenant: { count: 12, bytes: 100_000 },
          device: { count: 12, bytes: 100_000 },
        };
        const s = await open(await db(), Date.now, roomy);
        // tenant 1 floods: up to 9 of 12 freely, then its fair part (12 over 1 tenant) lets it to the platform's end...
        for (let i = 0; i < 8; i++) expect(publish(s, dev(1), `d/1/${i}`, 'x')).toBeNull();
        // ...until a second tenant holds one: then tenant 1, over 12 / 2, gets no more past the high water
        expect(publish(s, dev(2, 2), 'd/2/a', 'x')).toBeNull();
        expect(publish(s, dev(1), 'd/1/8', 'x')).toBe('fair_share');
        // tenant 2 and a third tenant, under their parts, still get room
        expect(publish(s, dev(2, 2), 'd/2/b', 'x')).toBeNull();
        expect(publish(s, dev(3, 3), 'd/3/a', 'x')).toBeNull();
        expect(publish(s, dev(3, 3), 'd/3/b', 'x')).toBeNull();
        expect(s.retainedUse().count).toBe(12);
        expect(publish(s, dev(3, 3), 'd/3/c', 'x')).toBe('platform');
        // tenant 1 may still replace what it holds, not grow it
        expect(publish(s, dev(1), 'd/1/0', 'y')).toBeNull();
        expect(publish(s, dev(1), 'd/1/0', 'lebih besar')).toBe('fair_share');
      });

      it('keeps each message with its holder across a restart: the shares are counted again from the database', async () => {
        const d = await db();
        const first = await open(d, Date.now, limits);
        for (let i = 0; i < 3; i++) publish(first, dev(1), `d/1/${i}`, 'x');
        await first.close();
        const second = await open(d, Date.now, limits);
        expect(second.retainedUse(dev(1))).toEqual({ count: 3, bytes: 3 * 6 });
        expect(publish(second, dev(1), 'd/1/3', 'x')).toBe('device');
        // a message kept before holders were counted has one of its own
        await d.legacyRetained('lama');
        expect((await open(d, Date.now, limits)).retainedUse({ device: 'unknown' }).count).toBe(1);
      });

      it('lets a retained message whose MQTT 5 expiry passed go, freeing its share, and says which topics went', async () => {
        let now = 0;
        const s = await open(await db(), () => now, limits);
        s.admitRetained(dev(1), 'd/1/a', 4);
        s.retain({ ...msg('d/1/a', 'basi'), expiresAt: 500 }, dev(1));
        publish(s, dev(1), 'd/1/b', 'tetap');
        now = 600;
        expect(s.expire()).toEqual(['d/1/a']);
        expect(s.retainedUse(dev(1)).count).toBe(1);
        expect(s.counters.retained_expired).toBe(1);
      });
    });

    describe('writing', () => {
      it("leaves in the database what the store holds, whatever a flush's changes (drops, requeues, removals, ends)", async () => {
        const d = await db();
        const s = await open(d);
        const later = Date.now() + 60_000;
        const check = async () => {
          await s.flush();
          const clients = ['c1', 'c2', 'c3'];
          const restarted = await lookAt(d);
          const want = contents(s, clients, 'device:1');
          expect(contents(restarted, clients, 'device:1')).toEqual(want);
          // taken from the memory to compare: kept again, with their queues, for the next round
          for (const [i, c] of clients.entries()) {
            const was = want.sessions[i];
            if (!was) continue;
            s.keep(c, 'device:1', was.subscriptions, later);
            s.requeue(
              c,
              was.queued.map((p) => msg('d/1/cmd', p)),
            );
          }
        };
        s.keep('c1', 'device:1', [{ topic: 'd/1/#', qos: 1 }], later);
        s.keep('c2', 'device:1', [{ topic: 'd/1/cmd', qos: 1 }], later);
        // in one flush: a queue past its bound (dropped from its front), copies of one payload, one removed
        for (let i = 0; i < MAX_QUEUED_MESSAGES + 30; i++) s.enqueue(msg('d/1/cmd', i % 7 === 0 ? 'dup' : `m${i}`));
        expect(s.unqueue('d/1/cmd', Buffer.from('dup'))).toBe(true);
        s.retain(msg('t/a', 'satu'));
        s.retain(msg('t/a', 'dua'));
        s.retain(msg('t/b', 'hapus'));
        s.retain(msg('t/b', ''));
        await check();
        // across the stored rows: drops of stored rows, a removal among them, an ended and a new session
        await s.flush();
        for (let i = 0; i < 40; i++) s.enqueue(msg('d/1/cmd', `n${i}`));
        expect(s.unqueue('d/1/cmd', Buffer.from('dup'))).toBe(true);
        s.take('c2', 'device:1', true);
        s.keep('c3', 'device:1', [{ topic: 'd/1/x', qos: 1 }], later);
        s.enqueue(msg('d/1/x', 'x1'));
        s.requeue('c3', [msg('d/1/x', 'x0')]);
        s.enqueue(msg('d/1/x', 'x2'));
        s.retain(msg('t/a', ''));
        s.retain(msg('t/c', 'tiga'));
        await check();
      });

      it('writes a flush in one transaction of a few statements, not one per change', async () => {
        const d = await db();
        const s = await open(d);
        for (const c of ['c1', 'c2', 'c3']) s.keep(c, 'device:1', [{ topic: 'd/1/cmd', qos: 1 }], Date.now() + 60_000);
        for (let i = 0; i < MAX_QUEUED_MESSAGES + 100; i++) s.enqueue(msg('d/1/cmd', `m${i}`));
        for (let i = 0; i < 500; i++) s.retain(msg(`t/${i % 50}`, `r${i}`));
        const before = d.statements;
        await s.flush();
        expect(s.pendingWrites).toBe(0);
        // PostgreSQL: BEGIN, sessions, 4 chunks of queued rows, the drops, retained, COMMIT: 9 (SQLite counts none)
        expect(d.statements - before).toBe(engine.name === 'PostgreSQL' ? 9 : 0);
        const back = await lookAt(d);
        expect(back.size).toEqual({ sessions: 3, queued: 3 * MAX_QUEUED_MESSAGES, retained: 50 });
        expect(back.take('c2', 'device:1', false)!.queued[0]!.payload.toString()).toBe('m100');
      });

      it('keeps the changes of a failed flush and writes them with the next, reporting once per outage', async () => {
        const d = await db();
        const real = d.persistence();
        let down = false;
        const flaky: BrokerStatePersistence = {
          ...real,
          write: (changes: readonly BrokerStateChange[]) =>
            down ? Promise.reject(new Error('storage down')) : real.write(changes),
        };
        const errors: unknown[] = [];
        const s = await SessionStore.open(flaky, { failed: (err) => errors.push(err) });
        stores.push(s);
        s.keep('c1', 'device:1', [{ topic: 'd/1/cmd', qos: 1 }], Date.now() + 60_000);
        await s.flush();
        down = true;
        for (let round = 0; round < 3; round++) {
          s.enqueue(msg('d/1/cmd', `m${round}`));
          s.retain(msg(`t/${round}`, `r${round}`));
          await s.flush();
        }
        expect(errors).toHaveLength(1);
        expect(s.counters.store_write_failures).toBe(3);
        expect(s.pendingWrites).toBe(6);
        down = false;
        s.enqueue(msg('d/1/cmd', 'm3'));
        await s.flush();
        expect(s.pendingWrites).toBe(0);
        const back = await lookAt(d);
        expect(
          back
            .retainedMessages()
            .map((m) => m.topic)
            .sort(),
        ).toEqual(['t/0', 't/1', 't/2']);
        expect(back.take('c1', 'device:1', false)!.queued.map((m) => m.payload.toString())).toEqual([
          'm0',
          'm1',
          'm2',
          'm3',
        ]);
        // a new outage is reported again
        down = true;
        s.retain(msg('t/9', 'x'));
        await s.flush();
        expect(errors).toHaveLength(2);
        down = false;
      });

      it('writes what is pending when it closes', async () => {
        const d = await db();
        const s = await SessionStore.open(d.persistence());
        s.retain(msg('t/a', 'akhir'));
        await s.close();
        expect((await lookAt(d)).retainedMessages()).toHaveLength(1);
      });
    });
  });

describe('starting over SQLite at once (the composition without awaiting)', () => {
  it('takes a better-sqlite3 database and reads it synchronously', async () => {
    const d = openDb({ dataDir: ':memory:', schema, migrationsFolder: findUp('drizzle', import.meta.url) });
    try {
      const first = new SessionStore(d.sqlite);
      first.retain(msg('t/a', 'x'));
      await first.close();
      expect(new SessionStore(d.sqlite).retainedMessages()).toHaveLength(1);
    } finally {
      d.close();
    }
  });
});

describe('a flush on SQLite while the telemetry writer holds the write lock', () => {
  it('never holds the event loop, and is on disk once the lock is free', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sentra-broker-lock-'));
    const d = openDb({ dataDir: dir, schema, migrationsFolder: findUp('drizzle', import.meta.url) });
    // the writer thread's stand-in: another connection inside a write transaction for 150 ms
    const other = new Database(join(dir, 'sentra.db'));
    try {
      const s = await SessionStore.open(sqliteBrokerState(d.sqlite));
      other.exec('begin immediate');
      s.retain(msg('t/a', 'tertahan'));
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 5);
      const flushed = s.flush();
      await new Promise((r) => setTimeout(r, 150));
      other.exec('commit');
      await flushed;
      clearInterval(ticker);
      expect(ticks).toBeGreaterThan(10); // waiting in the busy handler would have held the event loop: none
      expect(s.pendingWrites).toBe(0);
      expect(d.sqlite.prepare('select count(*) from mqtt_retained').pluck().get()).toBe(1);
      await s.close();
    } finally {
      other.close();
      d.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!hasPostgres)('during a PostgreSQL outage', () => {
  let pg: Postgres;
  let url: string;
  beforeAll(async () => {
    pg = await startPostgres({ fsync: 'off' });
    url = await pg.createDatabase();
  }, 60_000);
  afterAll(async () => pg?.destroy());

  it('keeps every change of the flushes that fail, reports once, and writes them when PostgreSQL is back', async () => {
    const e = await postgresEngine(url);
    const errors: unknown[] = [];
    const s = await SessionStore.open(e.persistence(), { failed: (err) => errors.push(err) });
    try {
      s.keep('c1', 'device:1', [{ topic: 'd/1/cmd', qos: 1 }], Date.now() + 600_000);
      s.retain(msg('t/before', 'ada'));
      await s.flush();
      await pg.stop('immediate');
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 10; i++) s.enqueue(msg('d/1/cmd', `r${round}m${i}`));
        s.retain(msg(`t/down${round}`, 'tunggu'));
        await s.flush();
      }
      expect(errors).toHaveLength(1);
      expect(s.counters.store_write_failures).toBe(3);
      expect(s.pendingWrites).toBe(33);
      await pg.start();
      s.enqueue(msg('d/1/cmd', 'after'));
      // the pool may hand out a connection that died with the server first: flushes go on until one is stored
      for (let i = 0; i < 5 && s.pendingWrites > 0; i++) await s.flush();
      expect(s.pendingWrites).toBe(0);
    } finally {
      await s.close();
      await e.close();
    }
    const again = await postgresEngine(url);
    try {
      const back = await lookAt(again);
      expect(
        back
          .retainedMessages()
          .map((m) => m.topic)
          .sort(),
      ).toEqual(['t/before', 't/down0', 't/down1', 't/down2']);
      const queued = back.take('c1', 'device:1', false)!.queued.map((m) => m.payload.toString());
      expect(queued).toHaveLength(31);
      expect(queued[0]).toBe('r0m0');
      expect(queued.at(-1)).toBe('after');
    } finally {
      await again.close();
    }
  }, 60_000);
});
