import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  filterMatches,
  MAX_QUEUED_MESSAGES,
  MAX_RETAINED_BYTES,
  MAX_SESSIONS_PER_IDENTITY,
  SessionStore,
} from './session-store.js';

const schema = `
CREATE TABLE mqtt_retained (topic text PRIMARY KEY NOT NULL, payload blob NOT NULL, qos integer NOT NULL, properties text, expires_at integer);
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
