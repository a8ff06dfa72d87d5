import { describe, expect, it } from 'vitest';
import { BrokerSessions, GONE_KEPT_MS, UNREADY_KEPT_MS, type Session } from './broker-sessions.js';
import { TopicFilters } from './topic-filters.js';
import type { BrokerAuthority, MqttIdentity } from './types.js';

const authority: BrokerAuthority = {
  authenticate: () => null,
  authorizePublish: () => true,
  authorizeSubscribe: () => true,
};
type FakeThread = { name: string; filters: TopicFilters };
const thread = (name: string): FakeThread => ({ name, filters: new TopicFilters() });

function table() {
  const said: string[] = [];
  const away: Session<FakeThread>[] = [];
  const sessions = new BrokerSessions<FakeThread>({
    connected: (id, clientId) => said.push(`+${id.key} ${clientId}`),
    disconnected: (id, clientId) => said.push(`-${id.key} ${clientId}`),
    away: (s) => away.push(s),
  });
  return { sessions, said, away };
}
const device = (n: number): MqttIdentity => ({ key: `device:${n}` });

describe('the event loop’s MQTT sessions', () => {
  it('announces a session once its thread has it ready, and its departure once', () => {
    const { sessions, said } = table();
    const t0 = thread('t0');
    const { sid } = sessions.open({ identity: device(1), authority }, 'c1', t0, 0);
    expect(sessions.connected()).toEqual([]);
    sessions.ready(sid, 'c1');
    expect(sessions.connected()).toEqual([device(1)].map((d) => expect.objectContaining(d)));
    sessions.end(sid, false);
    sessions.end(sid, false);
    expect(said).toEqual(['+device:1 c1', '-device:1 c1']);
    expect(sessions.connected()).toEqual([]);
  });

  it('hands a client id over to the session that takes it, telling who held it (to kick on another thread)', () => {
    const { sessions } = table();
    const [t0, t1] = [thread('t0'), thread('t1')];
    const first = sessions.open({ identity: device(1), authority }, 'c1', t0, 0);
    expect(sessions.holderKey('c1')).toBe('device:1');
    const second = sessions.open({ identity: device(1), authority }, 'c1', t1, 0);
    expect(second.older?.sid).toBe(first.sid);
    expect(second.older?.session.thread).toBe(t0);
    // the older one's end (replaced) does not give the id up
    sessions.end(first.sid, true);
    expect(sessions.holderKey('c1')).toBe('device:1');
    sessions.end(second.sid, false);
    expect(sessions.holderKey('c1')).toBeUndefined();
  });

  it('never shows a device taken over by its own new connection as gone: the old departure follows the new arrival', () => {
    const { sessions, said } = table();
    const [t0, t1] = [thread('t0'), thread('t1')];
    const first = sessions.open({ identity: device(1), authority }, 'c1', t0, 0);
    sessions.ready(first.sid, 'c1');
    // the second connection is accepted (its CONNACK may be out), the first one's end arrives before its ready
    const second = sessions.open({ identity: device(1), authority }, 'c1', t1, 0);
    sessions.end(first.sid, false);
    expect(said).toEqual(['+device:1 c1']);
    sessions.ready(second.sid, 'c1');
    expect(said).toEqual(['+device:1 c1', '+device:1 c1', '-device:1 c1']);
    // a successor that never gets ready lets the departure through when it ends, or when the sweep forgets it
    const third = sessions.open({ identity: device(1), authority }, 'c1', t0, 0);
    sessions.end(second.sid, true);
    sessions.end(third.sid, false);
    expect(said.slice(3)).toEqual(['-device:1 c1']);
    const fourth = sessions.open({ identity: device(2), authority }, 'c2', t0, 0);
    sessions.ready(fourth.sid, 'c2');
    const fifth = sessions.open({ identity: device(2), authority }, 'c2', t1, 0);
    sessions.end(fourth.sid, false);
    expect(said.slice(4)).toEqual(['+device:2 c2']);
    sessions.sweep(sessions.get(fifth.sid)!.since + UNREADY_KEPT_MS + 1);
    expect(said.slice(4)).toEqual(['+device:2 c2', '-device:2 c2']);
    // another identity taking the client id does not hold the first one's departure back
    const sixth = sessions.open({ identity: device(3), authority }, 'c3', t0, 0);
    sessions.ready(sixth.sid, 'c3');
    sessions.open({ identity: device(4), authority }, 'c3', t1, 0);
    sessions.end(sixth.sid, false);
    expect(said.slice(6)).toEqual(['+device:3 c3', '-device:3 c3']);
  });

  it("keeps a thread's filters while its sessions subscribe, and drops them when they unsubscribe or end", () => {
    const { sessions } = table();
    const t0 = thread('t0');
    const { sid } = sessions.open({ identity: device(1), authority }, 'c1', t0, 0);
    sessions.subscribed(sid, ['d/1/#', 'cmd/1'], [1, 0]);
    expect(t0.filters.matches('d/1/data')).toBe(true);
    sessions.unsubscribed(sid, ['cmd/1']);
    expect(t0.filters.matches('cmd/1')).toBe(false);
    expect([...sessions.get(sid)!.qos]).toEqual([['d/1/#', 1]]);
    sessions.end(sid, false);
    expect(t0.filters.matches('d/1/data')).toBe(false);
  });

  it('keeps a persistent session nobody took over for its return, not a clean one nor one taken over', () => {
    const { sessions, away } = table();
    const t0 = thread('t0');
    const clean = sessions.open({ identity: device(1), authority }, 'c1', t0, 0);
    sessions.end(clean.sid, false);
    const kept = sessions.open({ identity: device(2), authority }, 'c2', t0, 60);
    sessions.end(kept.sid, false);
    const old = sessions.open({ identity: device(3), authority }, 'c3', t0, 60);
    sessions.open({ identity: device(3), authority }, 'c3', t0, 60);
    sessions.end(old.sid, true);
    expect(away.map((s) => s.clientId)).toEqual(['c2']);
  });

  it('says an identity has ended (its will may follow) until it connects anew, and ends a lost thread’s sessions', () => {
    const { sessions } = table();
    const [t0, t1] = [thread('t0'), thread('t1')];
    const id = device(1);
    const a = sessions.open({ identity: id, authority }, 'c1', t0, 0);
    sessions.open({ identity: device(2), authority }, 'c2', t1, 0);
    sessions.endAllOf(t0);
    expect(sessions.hasEnded(id)).toBe(true);
    expect(sessions.get(a.sid)!.gone).toBe(true);
    expect(sessions.hasEnded(device(2))).toBe(false);
    sessions.open({ identity: id, authority }, 'c1', t0, 0);
    expect(sessions.hasEnded(id)).toBe(false);
  });

  it('finds the sessions to kick by identity, per thread, and survives a matcher that throws', () => {
    const { sessions } = table();
    const [t0, t1] = [thread('t0'), thread('t1')];
    const a = sessions.open({ identity: device(1), authority }, 'a', t0, 0);
    const b = sessions.open({ identity: device(1), authority }, 'b', t1, 0);
    sessions.open({ identity: device(2), authority }, 'c', t1, 0);
    const failures: unknown[] = [];
    const hits = sessions.kick(
      (id) => {
        if (id.key === 'device:2') throw new Error('boom');
        return id.key === 'device:1';
      },
      (err) => failures.push(err),
    );
    expect([...hits]).toEqual([
      [t0, [a.sid]],
      [t1, [b.sid]],
    ]);
    expect(failures).toHaveLength(1);
  });

  it('frees the client id of a kicked session at once: another identity may take it before the thread reports it gone', () => {
    const { sessions, said } = table();
    const t0 = thread('t0');
    const unclaimed = { key: 'gateway:ZL1' };
    const old = sessions.open({ identity: unclaimed, authority }, 'ZL1', t0, 0);
    sessions.ready(old.sid, 'ZL1');
    expect(sessions.holderKey('ZL1')).toBe('gateway:ZL1');
    sessions.kick(
      (id) => id.key === 'gateway:ZL1',
      () => {},
    );
    expect(sessions.holderKey('ZL1')).toBeUndefined();
    // the registered gateway signs in; the kicked session is still up, to be closed by its thread
    const registered = sessions.open({ identity: device(7), authority }, 'ZL1', t0, 0);
    expect(registered.older?.sid).toBe(old.sid);
    sessions.ready(registered.sid, 'ZL1');
    sessions.end(old.sid, true);
    expect(sessions.holderKey('ZL1')).toBe('device:7');
    expect(said).toEqual(['+gateway:ZL1 ZL1', '+device:7 ZL1', '-gateway:ZL1 ZL1']);
  });

  it('forgets gone sessions after their will could come, and accepted ones that never became ready', () => {
    const { sessions } = table();
    const t0 = thread('t0');
    const gone = sessions.open({ identity: device(1), authority }, 'a', t0, 0);
    const unready = sessions.open({ identity: device(2), authority }, 'b', t0, 0);
    const live = sessions.open({ identity: device(3), authority }, 'c', t0, 0);
    sessions.ready(live.sid, 'c');
    sessions.end(gone.sid, false);
    const at = sessions.get(gone.sid)!.since;
    sessions.sweep(at + GONE_KEPT_MS - 1);
    expect(sessions.get(gone.sid)).toBeDefined();
    sessions.sweep(at + UNREADY_KEPT_MS + 1);
    expect(sessions.get(gone.sid)).toBeUndefined();
    expect(sessions.get(unready.sid)).toBeUndefined();
    expect(sessions.get(live.sid)).toBeDefined();
  });
});
