// The rule engine alone: operators and fields, transitions, durations (fake time), clear conditions, cooldown, the
// event categories, the index (unwatched points), and state kept across a restart (a new engine on the same store).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RuleCondition, TriggerEntry } from '@sentra/contracts';
import { compileRule, testValue } from './compile.js';
import {
  createRuleEngine,
  type EngineStateStore,
  type Firing,
  type PersistedState,
  type RuleEngine,
} from './engine.js';

const t = (
  query: TriggerEntry['field']['query'],
  op: TriggerEntry['op'],
  value: TriggerEntry['value'],
): TriggerEntry => ({ node_type: 'INCOMING_DEVICE_DATA', field: { query }, op, value });
const sel = (sensor: string, config: string, param: string) => [
  t('SENSOR', '==', sensor),
  t('CONFIG', '==', config),
  t('PARAM', '==', param),
];

function memoryStore(): EngineStateStore & { rows: Map<string, PersistedState> } {
  const rows = new Map<string, PersistedState>();
  const k = (r: number, d: number) => `${r}:${d}`;
  return {
    rows,
    all: async () => [...rows.values()],
    ofDevice: async (d) => [...rows.values()].filter((s) => s.deviceId === d),
    write: async (s) => void rows.set(k(s.ruleId, s.deviceId), { ...s }),
    remove: async (r, d) => void rows.delete(k(r, d)),
    removeRule: async (r) => [...rows.keys()].filter((x) => x.startsWith(`${r}:`)).forEach((x) => rows.delete(x)),
    removeDevice: async (d) => [...rows.keys()].filter((x) => x.endsWith(`:${d}`)).forEach((x) => rows.delete(x)),
  };
}

let id = 0;
function setup(category: number, condition: RuleCondition, store = memoryStore()) {
  const fired: Firing[] = [];
  const engine = createRuleEngine({ store, onFire: async (f) => void fired.push(f) });
  const rule = {
    id: ++id,
    appId: 7,
    category,
    name: 'r',
    key: null,
    description: '',
    condition,
    action: { new: [], response: [] },
  };
  engine.upsert(rule);
  let ts = Date.now();
  const send = (value: unknown, deviceId = 3, point = { sensor: 'tank', config: 'fuel', param: 'level' }) =>
    engine.telemetry({ appId: 7, deviceId, points: [{ ...point, value, ts: (ts = Math.max(ts + 1000, Date.now())) }] });
  return { engine, fired, send, rule, store };
}

describe('trigger operators (spec 03 section 9: == > >= <= <)', () => {
  const v = (op: TriggerEntry['op'], value: TriggerEntry['value']) =>
    compileRule({
      id: 1,
      appId: 1,
      category: 11,
      name: '',
      key: null,
      description: '',
      condition: { triggers: [t('VALUE', op, value)] },
      action: { new: [], response: [] },
    }).groups[0]!.clauses[0]!.tests[0]!;
  it.each([
    ['==', 20, 20, true],
    ['==', 20, 20.5, false],
    ['==', '20', 20, true],
    ['==', 'ON', 'ON', true],
    ['==', 'ON', 'OFF', false],
    ['==', true, true, true],
    ['==', 1, true, true],
    ['>', 20, 21, true],
    ['>', 20, 20, false],
    ['>=', 20, 20, true],
    ['>=', 20, 19.9, false],
    ['<=', 20, 20, true],
    ['<=', 20, 20.1, false],
    ['<', 20, 19, true],
    ['<', 20, 20, false],
    ['<', 20, '19', false],
    ['>', 20, null, false],
  ] as const)('%s %s against %s is %s', (op, value, point, expected) => {
    expect(testValue(v(op, value), point)).toBe(expected);
  });
});

describe('fields: DEVICE_ID, SENSOR, CONFIG, PARAM select; VALUE compares', () => {
  it('fires only for the named device, sensor, config and param', () => {
    const { fired, send } = setup(11, {
      triggers: [t('DEVICE_ID', '==', 3), ...sel('tank', 'fuel', 'level'), t('VALUE', '<', 20)],
    });
    send(5, 4);
    send(5, 3, { sensor: 'tank', config: 'fuel', param: 'temp' });
    send(5, 3, { sensor: 'tank', config: 'oil', param: 'level' });
    send(5, 3, { sensor: 'pump', config: 'fuel', param: 'level' });
    expect(fired).toHaveLength(0);
    send(5, 3);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({
      deviceId: 3,
      value: 5,
      point: { sensor: 'tank', config: 'fuel', param: 'level' },
    });
  });

  it('without DEVICE_ID watches every device of the application, each with its own state', () => {
    const { fired, send } = setup(11, { triggers: [...sel('tank', 'fuel', 'level'), t('VALUE', '<', 20)] });
    send(5, 3);
    send(5, 4);
    send(4, 3);
    expect(fired.map((f) => f.deviceId)).toEqual([3, 4]);
  });

  it('an open selector (no PARAM) matches any param of the sensor and config', () => {
    const { fired, send } = setup(11, {
      triggers: [t('SENSOR', '==', 'tank'), t('CONFIG', '==', 'fuel'), t('VALUE', '>', 90)],
    });
    send(95, 3, { sensor: 'tank', config: 'fuel', param: 'anything' });
    expect(fired).toHaveLength(1);
  });

  it('PARAM names a param (any subparam) or one subparam as param.subparam', () => {
    const one = setup(11, { triggers: [...sel('pm', 'meter', 'voltage.r'), t('VALUE', '>', 230)] });
    one.send(235, 3, { sensor: 'pm', config: 'meter', param: 'voltage', subparam: 's' } as never);
    expect(one.fired).toHaveLength(0);
    one.send(235, 3, { sensor: 'pm', config: 'meter', param: 'voltage', subparam: 'r' } as never);
    expect(one.fired).toHaveLength(1);
    expect(one.fired[0]!.point).toEqual({ sensor: 'pm', config: 'meter', param: 'voltage.r' });
    const any = setup(11, { triggers: [...sel('pm', 'meter', 'voltage'), t('VALUE', '>', 230)] });
    any.send(235, 3, { sensor: 'pm', config: 'meter', param: 'voltage', subparam: 't' } as never);
    expect(any.fired).toHaveLength(1);
  });

  it('costs nothing for points no rule watches (no evaluation)', () => {
    const { engine, send } = setup(11, {
      triggers: [t('DEVICE_ID', '==', 3), ...sel('tank', 'fuel', 'level'), t('VALUE', '<', 20)],
    });
    for (let i = 0; i < 100; i++) send(1, 3, { sensor: 'meter', config: 'pm', param: 'power' });
    expect(engine.metrics().checks).toBe(0);
    engine.telemetry({
      appId: 99,
      deviceId: 3,
      points: [{ sensor: 'tank', config: 'fuel', param: 'level', value: 1, ts: 1 }],
    });
    expect(engine.metrics().checks).toBe(0);
  });
});

describe('transitions', () => {
  it('fires on the transition from not matching to matching, not on every matching point', () => {
    const { fired, send } = setup(11, { triggers: [...sel('tank', 'fuel', 'level'), t('VALUE', '<', 20)] });
    send(50);
    send(10);
    send(9);
    send(8);
    expect(fired).toHaveLength(1);
    send(30);
    send(7);
    expect(fired).toHaveLength(2);
  });

  it('OR groups: either group matching is a match; the rule fires once until neither holds', () => {
    const { fired, send } = setup(11, {
      groups: [
        [...sel('tank', 'fuel', 'level'), t('VALUE', '<', 20)],
        [...sel('tank', 'fuel', 'temp'), t('VALUE', '>', 80)],
      ],
    });
    send(10);
    send(90, 3, { sensor: 'tank', config: 'fuel', param: 'temp' });
    expect(fired).toHaveLength(1);
    send(50);
    expect(fired).toHaveLength(1);
    send(20, 3, { sensor: 'tank', config: 'fuel', param: 'temp' });
    send(90, 3, { sensor: 'tank', config: 'fuel', param: 'temp' });
    expect(fired).toHaveLength(2);
  });

  it('category 12: every clause must hold in the same message', () => {
    const { engine, fired } = setup(12, {
      triggers: [
        ...sel('pm', 'meter', 'voltage'),
        t('VALUE', '<', 200),
        ...sel('pm', 'meter', 'current'),
        t('VALUE', '>', 10),
      ],
    });
    const msg = (v: number, c: number, ts: number) =>
      engine.telemetry({
        appId: 7,
        deviceId: 3,
        points: [
          { sensor: 'pm', config: 'meter', param: 'voltage', value: v, ts },
          { sensor: 'pm', config: 'meter', param: 'current', value: c, ts },
        ],
      });
    msg(190, 5, 1);
    msg(230, 15, 2);
    expect(fired).toHaveLength(0);
    msg(190, 15, 3);
    expect(fired).toHaveLength(1);
  });
});

describe('evaluated once (gateways storing locally)', () => {
  const condition = { triggers: [...sel('tank', 'fuel', 'level'), t('VALUE', '<', 20)] };
  const at = (value: number, ts: number) => ({
    appId: 7,
    deviceId: 3,
    points: [{ sensor: 'tank', config: 'fuel', param: 'level', value, ts }],
  });
  const rule = (n: number) => ({
    id: 900 + n,
    appId: 7,
    category: 11,
    name: 'r',
    key: null,
    description: '',
    condition,
    action: { new: [], response: [] },
  });

  it('a message sent again after its acknowledgement was lost fires no second time, on another engine too', async () => {
    const store = memoryStore();
    const fired: Firing[] = [];
    const a = createRuleEngine({ store, onFire: async (f) => void fired.push(f), evaluatedOnce: true });
    a.upsert(rule(1));
    a.telemetry(at(50, 1000));
    a.telemetry(at(10, 2000)); // crossing: fires
    a.telemetry(at(50, 3000)); // clears
    expect(fired).toHaveLength(1);
    await new Promise((r) => setImmediate(r));
    expect(store.rows.get('901:3')).toMatchObject({ phase: 'idle', lastTs: 3000 });
    // the device moved: another engine reads the state and gets the three messages again, then a new crossing
    const b = createRuleEngine({ store, onFire: async (f) => void fired.push(f), evaluatedOnce: true, shared: true });
    b.upsert(rule(1));
    await b.refresh(3);
    for (const ts of [1000, 2000, 3000]) b.telemetry(at(ts === 2000 ? 10 : 50, ts));
    expect(fired).toHaveLength(1);
    b.telemetry(at(10, 4000));
    expect(fired).toHaveLength(2);
    // a message with an old and a new point: only the new one counts
    b.telemetry({ appId: 7, deviceId: 3, points: [at(50, 3500).points[0]!, at(5, 4100).points[0]!] });
    expect(fired).toHaveLength(2);
  });

  it('a point whose evaluation was never written is evaluated again and fires once', async () => {
    const store = memoryStore();
    const fired: Firing[] = [];
    const lost = createRuleEngine({
      store,
      onFire: async (f) => void fired.push(f),
      evaluatedOnce: true,
      write: () => {},
    });
    lost.upsert(rule(2));
    lost.telemetry(at(10, 2000)); // fired in memory, its write (the task with the state) lost with the gateway
    expect(lost.metrics().fired).toBe(1);
    expect(fired).toHaveLength(0);
    const b = createRuleEngine({ store, onFire: async (f) => void fired.push(f), evaluatedOnce: true, shared: true });
    b.upsert(rule(2));
    await b.refresh(3);
    b.telemetry(at(10, 2000));
    expect(fired).toHaveLength(1);
  });

  it('off (one gateway): a point older than the last is still evaluated, as before', () => {
    const { fired, engine, rule: r } = setup(11, condition);
    engine.telemetry(at(50, 5000));
    engine.telemetry(at(10, 4000));
    expect(fired).toHaveLength(1);
    expect(engine.state(r.id, 3)?.lastTs).toBeNull();
  });
});

describe('clear condition (hysteresis)', () => {
  it('stays active while the value hovers between the thresholds; fires again only after the clear condition held', () => {
    const { fired, send } = setup(11, {
      triggers: [...sel('tank', 'fuel', 'level'), t('VALUE', '<', 20)],
      clear: [...sel('tank', 'fuel', 'level'), t('VALUE', '>=', 30)],
    });
    send(19);
    send(21);
    send(19);
    send(25);
    send(18);
    expect(fired).toHaveLength(1);
    send(31);
    send(10);
    expect(fired).toHaveLength(2);
  });
});

describe('duration (fake time)', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('fires once the match has held for duration_s, not when it ends sooner', () => {
    const { fired, send, engine, rule } = setup(11, {
      triggers: [...sel('tank', 'fuel', 'level'), t('VALUE', '<', 20)],
      duration_s: 60,
    });
    send(10);
    expect(engine.state(rule.id, 3)?.phase).toBe('pending');
    vi.advanceTimersByTime(30_000);
    send(50);
    vi.advanceTimersByTime(60_000);
    expect(fired).toHaveLength(0);
    send(10);
    vi.advanceTimersByTime(59_000);
    expect(fired).toHaveLength(0);
    vi.advanceTimersByTime(2000);
    expect(fired).toHaveLength(1);
    expect(fired[0]!.value).toBe(10);
    expect(engine.state(rule.id, 3)?.phase).toBe('active');
  });

  it('a pending duration survives a restart: a new engine on the same store fires when it is due', async () => {
    const store = memoryStore();
    const first = setup(
      11,
      { triggers: [...sel('tank', 'fuel', 'level'), t('VALUE', '<', 20)], duration_s: 60 },
      store,
    );
    first.send(10);
    first.engine.close();
    vi.advanceTimersByTime(20_000);

    const fired: Firing[] = [];
    const second = createRuleEngine({ store, onFire: async (f) => void fired.push(f) });
    second.upsert(first.rule);
    await second.restore();
    expect(second.state(first.rule.id, 3)?.phase).toBe('pending');
    vi.advanceTimersByTime(39_000);
    expect(fired).toHaveLength(0);
    vi.advanceTimersByTime(2000);
    expect(fired).toHaveLength(1);
    expect(fired[0]!.value).toBe(10);
  });
});

describe('cooldown', () => {
  it('does not fire again for the same rule and device within cooldown_s of the last firing', () => {
    const { fired, send } = setup(11, {
      triggers: [...sel('tank', 'fuel', 'level'), t('VALUE', '<', 20)],
      cooldown_s: 5,
    });
    send(10); // fires
    send(50);
    send(10); // 2 s later: suppressed
    send(50);
    send(10); // 4 s: suppressed
    send(50);
    send(10); // 6 s after the firing: fires
    expect(fired).toHaveLength(2);
  });
});

describe("each category's event", () => {
  const ev = (
    engine: ReturnType<typeof setup>['engine'],
    category: number,
    deviceId = 3,
    extra: { key?: string; value?: unknown } = {},
  ) => engine.event({ appId: 7, deviceId, category, ts: Date.now(), ...extra });

  it.each([32, 111, 112, 113, 119, 501])(
    'category %i fires on each of its events (filtered by DEVICE_ID)',
    (category) => {
      const { engine, fired } = setup(category, { triggers: [t('DEVICE_ID', '==', 3)] });
      ev(engine, category, 4);
      ev(engine, category, 3);
      ev(engine, category, 3);
      ev(engine, category === 111 ? 112 : 111, 3);
      expect(fired).toHaveLength(2);
    },
  );

  it.each([21, 22])(
    'category %i with VALUE == 0 fires when the device goes offline (a level: once per offline spell)',
    (category) => {
      const { engine, fired } = setup(category, { triggers: [t('VALUE', '==', 0)] });
      ev(engine, category, 3, { value: 1 });
      ev(engine, category, 3, { value: 0 });
      ev(engine, category, 3, { value: 0 });
      expect(fired).toHaveLength(1);
      ev(engine, category, 3, { value: 1 });
      ev(engine, category, 3, { value: 0 });
      expect(fired).toHaveLength(2);
    },
  );

  it('category 31 compares the named state (SENSOR = state key)', () => {
    const { engine, fired } = setup(31, { triggers: [t('SENSOR', '==', 'mode'), t('VALUE', '==', 'manual')] });
    ev(engine, 31, 3, { key: 'alarm', value: 'manual' });
    ev(engine, 31, 3, { key: 'mode', value: 'auto' });
    ev(engine, 31, 3, { key: 'mode', value: 'manual' });
    expect(fired).toHaveLength(1);
    expect(fired[0]!.value).toBe('manual');
  });

  it('category 10009 fires on the expiry event of its own silence threshold (duration_s)', () => {
    const { engine, fired } = setup(10009, { duration_s: 600 });
    ev(engine, 10009, 3, { value: 3600 });
    ev(engine, 10009, 3, { value: 600 });
    expect(fired).toHaveLength(1);
  });
});

describe('rules come and go', () => {
  it('a removed rule forgets its state and stops firing; an edited one starts over', () => {
    const { engine, fired, send, rule, store } = setup(11, {
      triggers: [...sel('tank', 'fuel', 'level'), t('VALUE', '<', 20)],
    });
    send(10);
    expect(store.rows.size).toBe(1);
    engine.upsert({ ...rule, condition: { triggers: [...sel('tank', 'fuel', 'level'), t('VALUE', '<', 5)] } });
    send(10);
    expect(fired).toHaveLength(1);
    engine.remove(rule.id);
    expect(store.rows.size).toBe(0);
    send(50);
    send(1);
    expect(fired).toHaveLength(1);
  });

  it('a removed device loses its state and timers', () => {
    vi.useFakeTimers();
    try {
      const { engine, fired, send, rule } = setup(11, {
        triggers: [...sel('tank', 'fuel', 'level'), t('VALUE', '<', 20)],
        duration_s: 10,
      });
      send(1);
      engine.deviceRemoved(3);
      expect(engine.state(rule.id, 3)).toBeUndefined();
      vi.advanceTimersByTime(20_000);
      expect(fired).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('what the committed-telemetry hook asks the index', () => {
  it('a device is watched while a telemetry rule names it (or any device); a removed rule leaves no entry behind', () => {
    const { engine, rule } = setup(11, {
      triggers: [t('DEVICE_ID', '==', 3), ...sel('tank', 'fuel', 'level'), t('VALUE', '<', 20)],
    });
    expect(engine.watchingDevice(7, 3)).toBe(true);
    expect(engine.watchingDevice(7, 4)).toBe(false);
    expect(engine.watchingDevice(8, 3)).toBe(false);
    const anyDevice = {
      ...rule,
      id: rule.id + 1000,
      condition: { triggers: [...sel('tank', 'fuel', 'level'), t('VALUE', '<', 20)] },
    };
    engine.upsert(anyDevice);
    expect(engine.watchingDevice(7, 4)).toBe(true);
    engine.remove(anyDevice.id);
    engine.remove(rule.id);
    expect(engine.watchingDevice(7, 3)).toBe(false);
    expect(engine.watchingDevice(7, 4)).toBe(false);
  });

  it('state rules (31) are asked for by category', () => {
    const { engine, rule } = setup(31, { triggers: [t('SENSOR', '==', 'mode'), t('VALUE', '==', 'manual')] });
    expect(engine.watchingEvent(7, 31)).toBe(true);
    expect(engine.watchingEvent(7, 32)).toBe(false);
    expect(engine.watchingDevice(7, 3)).toBe(false);
    engine.remove(rule.id);
    expect(engine.watchingEvent(7, 31)).toBe(false);
  });
});

describe('writes handed to a queue (the gateway writes them when the lock is free)', () => {
  it('the state and the firing are written when the job runs; a rule removed before that writes nothing', () => {
    const store = memoryStore();
    const fired: Firing[] = [];
    const jobs: Array<() => Promise<void>> = [];
    const engine = createRuleEngine({
      store,
      onFire: async (f) => void fired.push(f),
      write: (job) => void jobs.push(job),
    });
    const rule = {
      id: ++id,
      appId: 7,
      category: 11,
      name: 'r',
      key: null,
      description: '',
      condition: { triggers: [...sel('tank', 'fuel', 'level'), t('VALUE', '<', 20)] },
      action: { new: [], response: [] },
    };
    engine.upsert(rule);
    const send = (value: number, deviceId: number) =>
      engine.telemetry({
        appId: 7,
        deviceId,
        points: [{ sensor: 'tank', config: 'fuel', param: 'level', value, ts: Date.now() }],
      });
    send(10, 3);
    // evaluation went on at once; the database has not been touched yet
    expect(engine.state(rule.id, 3)?.phase).toBe('active');
    expect(store.rows.size).toBe(0);
    expect(fired).toHaveLength(0);
    jobs.splice(0).forEach((j) => void j());
    expect(store.rows.size).toBe(1);
    expect(fired).toHaveLength(1);
    send(50, 3);
    send(10, 4);
    engine.remove(rule.id);
    jobs.splice(0).forEach((j) => void j());
    expect(store.rows.size).toBe(0);
    expect(fired).toHaveLength(1);
  });
});

describe('scale-out: the state is read back before a device is evaluated (refresh)', () => {
  it('a gateway sees the phase another gateway wrote, and a state another removed', async () => {
    const store = memoryStore();
    const rule = {
      id: ++id,
      appId: 7,
      category: 11,
      name: 'r',
      key: null,
      description: '',
      condition: { triggers: [...sel('tank', 'fuel', 'level'), t('VALUE', '<', 20)] },
      action: { new: [], response: [] },
    };
    const firedA: Firing[] = [];
    const firedB: Firing[] = [];
    const a = createRuleEngine({ store, onFire: async (f) => void firedA.push(f), shared: true });
    const b = createRuleEngine({ store, onFire: async (f) => void firedB.push(f), shared: true });
    a.upsert(rule);
    b.upsert(rule);
    const send = (engine: RuleEngine, value: number) =>
      engine.telemetry({
        appId: 7,
        deviceId: 3,
        points: [{ sensor: 'tank', config: 'fuel', param: 'level', value, ts: Date.now() }],
      });
    await a.refresh(3);
    send(a, 10);
    expect(firedA).toHaveLength(1);
    // the next message of the device comes to the other gateway: still active there, no second firing
    await b.refresh(3);
    expect(b.state(rule.id, 3)?.phase).toBe('active');
    send(b, 5);
    expect(firedB).toHaveLength(0);
    // b clears it; a reads that back and fires again on the next crossing
    send(b, 50);
    expect(store.rows.get(`${rule.id}:3`)?.phase).toBe('idle');
    await a.refresh(3);
    expect(a.state(rule.id, 3)?.phase).toBe('idle');
    store.rows.clear();
    await a.refresh(3);
    expect(a.state(rule.id, 3)).toMatchObject({ phase: 'idle', lastFireTs: null });
    send(a, 10);
    expect(firedA).toHaveLength(2);
  });
});
