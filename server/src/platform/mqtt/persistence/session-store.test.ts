import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  filterMatches,
  MAX_QUEUED_MESSAGES,
  MAX_RETAINED_BYTES,
  MAX_SESSIONS_PER_IDENTITY,
  SessionStore,
  type RetainedHolder,
  type RetainedLimits,
} from './session-store.js';

const schema = `
CREATE TABLE mqtt_retained (topic text PRIMARY KEY NOT NULL, payload blob NOT NULL, qos integer NOT NULL, properties text, expires_at integer, holder text, tenant text);
CREATE TABLE mqtt_sessions (client_id text PRIMARY KEY NOT NULL, identity_key text NOT NULL, subscriptions text NOT NULL, expires_at integer NOT NULL);
CREATE TABLE mqtt_queued (id integer PRIMARY KEY AUTOINCREMENT NOT NULL, client_id text NOT NULL, topic text NOT NULL, payload blob NOT NULL, qos integer NOT NULL, properties text, expires_at integer);`;

const dbs: Database.Database[] = [];
afterEach(() => dbs.splice(0).forEach((d) => d.close()));
function db() {
  const d = new Database(':memory:');
  d.exec(schema);
  dbs.push(d);
  return d;
}
const msg = (topic: string, payload: string, qos: 0 | 1 | 2 = 1) => ({ topic, payload: Buffer.from(payload), qos });

describe('the broker session store', () => {
  it('matches MQTT filters', () => {
    expect(filterMatches('d/+/cmd', 'd/4/cmd')).toBe(true);
    expect(filterMatches('d/#', 'd/4/cmd')).toBe(true);
    expect(filterMatches('d/#', 'd')).toBe(true);
    expect(filterMatches('d/+', 'd/4/cmd')).toBe(false);
    expect(filterMatches('#', '$SYS/x')).toBe(false);
    expect(filterMatches('d/4', 'd/4')).toBe(true);
  });

  it('keeps retained messages and away sessions with their queued QoS 1 messages across a restart (a new store on the same database)', () => {
    const d = db();
    let now = 1000;
    const first = new SessionStore(d, () => now);
    first.retain(msg('t/a', 'tetap'));
    first.retain(msg('t/b', 'hapus'));
    first.retain(msg('t/b', ''));
    first.keep('c1', 'device:1', [{ topic: 'd/1/cmd', qos: 1 }], now + 60_000);
    first.enqueue(msg('d/1/cmd', 'satu'));
    first.enqueue(msg('d/1/cmd', 'qos0', 0));
    first.enqueue(msg('d/2/cmd', 'lain'));
    first.close();

    const second = new SessionStore(d, () => now);
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
    second.close();
    // taken: gone from the database too
    now += 1;
    expect(new SessionStore(d, () => now).size).toEqual({ sessions: 0, queued: 0, retained: 1 });
  });

  it(`bounds a session's queue at ${MAX_QUEUED_MESSAGES} messages, dropping the oldest and counting them`, () => {
    const s = new SessionStore(db());
    s.keep('c1', 'device:1', [{ topic: 'd/1/#', qos: 1 }], Date.now() + 60_000);
    for (let i = 0; i < MAX_QUEUED_MESSAGES + 5; i++) s.enqueue(msg('d/1/cmd', `m${i}`));
    expect(s.counters.queued_dropped).toBe(5);
    const queued = s.take('c1', 'device:1', false)!.queued;
    expect(queued).toHaveLength(MAX_QUEUED_MESSAGES);
    expect(queued[0]!.payload.toString()).toBe('m5');
  });

  it('bounds queued bytes at 1 MiB per session', () => {
    const s = new SessionStore(db());
    s.keep('c1', 'device:1', [{ topic: 'd/1/#', qos: 1 }], Date.now() + 60_000);
    const big = 'x'.repeat(300 * 1024);
    for (let i = 0; i < 5; i++) s.enqueue(msg('d/1/cmd', big + i));
    expect(s.take('c1', 'device:1', false)!.queued.map((m) => m.payload.toString().slice(-1))).toEqual(['2', '3', '4']);
  });

  it('ends a session on a clean connect, and when its expiry passes', () => {
    let now = 0;
    const s = new SessionStore(db(), () => now);
    s.keep('c1', 'device:1', [{ topic: 'a', qos: 1 }], 10_000);
    expect(s.take('c1', 'device:1', true)).toBeUndefined();
    expect(s.size.sessions).toBe(0);
    s.keep('c2', 'device:1', [{ topic: 'a', qos: 1 }], 10_000);
    now = 10_001;
    s.expire();
    expect(s.size.sessions).toBe(0);
    expect(s.counters.sessions_expired).toBe(1);
  });

  it(`holds at most ${MAX_SESSIONS_PER_IDENTITY} away sessions per identity, ending the oldest`, () => {
    const s = new SessionStore(db());
    for (let i = 0; i < MAX_SESSIONS_PER_IDENTITY + 2; i++)
      s.keep(`c${i}`, 'device:1', [{ topic: 'a', qos: 1 }], Date.now() + 60_000);
    expect(s.size.sessions).toBe(MAX_SESSIONS_PER_IDENTITY);
    expect(s.take('c0', 'device:1', false)).toBeUndefined();
    expect(s.take(`c${MAX_SESSIONS_PER_IDENTITY + 1}`, 'device:1', false)).toBeDefined();
  });

  it('drops a queued copy on request (a command past its time-out), and requeues what was in flight first', () => {
    const s = new SessionStore(db());
    s.keep('c1', 'device:1', [{ topic: 'd/1/cmd', qos: 1 }], Date.now() + 60_000);
    s.enqueue(msg('d/1/cmd', 'a'));
    s.enqueue(msg('d/1/cmd', 'b'));
    expect(s.unqueue('d/1/cmd', Buffer.from('a'))).toBe(true);
    expect(s.unqueue('d/1/cmd', Buffer.from('a'))).toBe(false);
    s.requeue('c1', [msg('d/1/cmd', 'terbang')]);
    expect(s.take('c1', 'device:1', false)!.queued.map((m) => m.payload.toString())).toEqual(['terbang', 'b']);
  });

  it('keeps retained messages up to MAX_RETAINED_BYTES, refusing and counting one beyond it; a replaced one frees its bytes', () => {
    const s = new SessionStore(db());
    const mb = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < MAX_RETAINED_BYTES / (1024 * 1024) - 1; i++) s.retain(msg(`t/${i}`, mb));
    s.retain(msg('t/lagi', mb + 'yy'));
    expect(s.counters.retained_refused).toBe(1);
    s.retain(msg('t/0', ''));
    s.retain(msg('t/lagi', mb));
    expect(s.counters.retained_refused).toBe(1);
    expect(s.retainedMessages().some((m) => m.topic === 't/lagi')).toBe(true);
  });

  it('does not deliver an expired retained or queued message', () => {
    let now = 0;
    const s = new SessionStore(db(), () => now);
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

  it("keeps a device's retained messages within its count and bytes, a replacement counting once", () => {
    const s = new SessionStore(db(), Date.now, () => {}, limits);
    for (const t of ['d/1/a', 'd/1/b', 'd/1/c']) expect(publish(s, dev(1), t, 'x')).toBeNull();
    expect(publish(s, dev(1), 'd/1/d', 'x')).toBe('device');
    expect(publish(s, dev(1), 'd/1/a', 'y'.repeat(500))).toBeNull(); // replaces a: still three
    expect(publish(s, dev(1), 'd/1/b', 'y'.repeat(600))).toBe('device'); // 1000 bytes a device at most
    expect(s.retainedUse(dev(1))).toEqual({ count: 3, bytes: 5 + 500 + 5 + 1 + 5 + 1 });
    publish(s, dev(1), 'd/1/c', ''); // deleted: room again
    expect(publish(s, dev(1), 'd/1/d', 'x')).toBeNull();
    expect(s.counters).toMatchObject({ retained_refused: 2, retained_refused_device: 2 });
  });

  it("keeps a tenant's within its share, whatever its devices, and never touches another tenant's", () => {
    const s = new SessionStore(db(), Date.now, () => {}, limits);
    expect(publish(s, dev(9, 2), 'd/9/kept', 'milik tenant 2')).toBeNull();
    for (let d = 1; d <= 3; d++) for (let i = 0; i < 3; i++) publish(s, dev(d), `d/${d}/${i}`, 'x');
    expect(s.retainedUse({ tenant: 'tenant:1' }).count).toBe(5);
    expect(s.counters.retained_refused_tenant).toBe(4);
    expect(publish(s, dev(9, 2), 'd/9/lagi', 'y')).toBeNull();
    expect(s.retainedMessages().map((m) => m.topic)).toContain('d/9/kept');
  });

  it('past three quarters of the platform, refuses a tenant over its fair part while a tenant under it still gets room', () => {
    const roomy: RetainedLimits = {
      ...limits,
      tenant: { count: 12, bytes: 100_000 },
      device: { count: 12, bytes: 100_000 },
    };
    const s = new SessionStore(db(), Date.now, () => {}, roomy);
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

  it('keeps each message with its holder across a restart: the shares are counted again from the database', () => {
    const d = db();
    const first = new SessionStore(d, Date.now, () => {}, limits);
    for (let i = 0; i < 3; i++) publish(first, dev(1), `d/1/${i}`, 'x');
    first.close();
    const second = new SessionStore(d, Date.now, () => {}, limits);
    expect(second.retainedUse(dev(1))).toEqual({ count: 3, bytes: 3 * 6 });
    expect(publish(second, dev(1), 'd/1/3', 'x')).toBe('device');
    // a message kept before holders were counted has one of its own
    d.prepare("INSERT INTO mqtt_retained (topic, payload, qos) VALUES ('lama', x'01', 0)").run();
    expect(new SessionStore(d, Date.now, () => {}, limits).retainedUse({ device: 'unknown' }).count).toBe(1);
  });

  it('lets a retained message whose MQTT 5 expiry passed go, freeing its share, and says which topics went', () => {
    let now = 0;
    const s = new SessionStore(
      db(),
      () => now,
      () => {},
      limits,
    );
    s.admitRetained(dev(1), 'd/1/a', 4);
    s.retain({ ...msg('d/1/a', 'basi'), expiresAt: 500 }, dev(1));
    publish(s, dev(1), 'd/1/b', 'tetap');
    now = 600;
    expect(s.expire()).toEqual(['d/1/a']);
    expect(s.retainedUse(dev(1)).count).toBe(1);
    expect(s.counters.retained_expired).toBe(1);
  });
});
