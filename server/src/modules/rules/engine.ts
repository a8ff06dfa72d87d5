// The rule engine: matches committed telemetry and device events against the active rules by index, keeps a small
// state machine per rule and device, and hands every firing to `onFire` (which creates or updates the task and queues
// its messages in one transaction). docs/decisions/rules.md "Engine" explains the semantics:
//   level rules (telemetry, status/state with value tests): idle → (matching) → pending (duration) → active (fired)
//     → idle when the clear condition holds (or, without one, when the match stops); fires on the transition only;
//   pulse rules (device created/updated/deleted, node-expired, subscription, status without value tests): each event;
//   cooldown: no firing of a rule and device within cooldown of the last (the transition is still taken).
// The cost of a point no rule watches is two map lookups, whatever the number of rules.
// Over 500 lines: the index, the states, the timers and the firings share one closure (the engine's maps); split, each
// part would take the same state as arguments on the hot path.
import { performance } from 'node:perf_hooks';
import { waitOutStorageFaults } from '../../platform/db/storage-fault.js';
import type { Logger } from '../../platform/log.js';
import { compileRule, evalGroup, type CompiledRule, type EnginePoint, type RuleRecord } from './compile.js';
import { expiryOf } from './expiry.js';

export type Phase = 'idle' | 'pending' | 'active';

/** What the store keeps of a rule and device (rule_states). */
export interface PersistedState {
  ruleId: number;
  deviceId: number;
  phase: Phase;
  since: number;
  due: number | null;
  value: string | null;
  lastFireTs: number | null;
  /**
   * `evaluatedOnce`: the device's time of the newest point the rule evaluated for the device (written with the state),
   * else null
   */
  lastTs: number | null;
}

/** rule_states on the store (state-store.ts): asynchronous, read at start (and per message in scale-out) */
export interface EngineStateStore {
  all(): Promise<PersistedState[]>;
  /** every rule's state of a device (scale-out: read before the device's message is evaluated) */
  ofDevice(deviceId: number): Promise<PersistedState[]>;
  write(s: PersistedState): Promise<void>;
  remove(ruleId: number, deviceId: number): Promise<void>;
  removeRule(ruleId: number): Promise<void>;
  removeDevice(deviceId: number): Promise<void>;
}

/** one of the engine's writes: run inside the write's transaction, all its queries awaited */
export type WriteJob = () => Promise<void>;

export interface Firing {
  rule: CompiledRule;
  appId: number;
  /** 0: an event without a device */
  deviceId: number;
  ts: number;
  /** the value that made it fire (telemetry point, status 1/0, state value), as given */
  value: unknown;
  point: { sensor: string; config: string; param: string } | null;
}

/** A committed telemetry message (category 11 per value, 12 per message). */
export interface TelemetryEvent {
  appId: number;
  deviceId: number;
  points: readonly EnginePoint[];
}

/** A device or tenant event (categories 21..10009); `key` names a state (31, 32); `value` 1/0 for status. */
export interface DeviceEvent {
  appId: number;
  deviceId: number;
  category: number;
  ts: number;
  key?: string;
  value?: unknown;
}

export interface RuleEngineOptions {
  store: EngineStateStore;
  /** called inside the write's transaction, beside the state's write (both awaited before the commit) */
  onFire: (f: Firing) => Promise<void>;
  /**
   * Where the engine's writes go (a firing with its state, a phase change, a removal), in the order the engine made
   * them: the gateway passes its write queue (write-queue.ts), which runs each job in a transaction later, in order;
   * default: the job at once, without a transaction. The engine's memory has moved on either way (evaluation never
   * waits for a write), and a job checks at its run that its rule and state are still the engine's.
   */
  write?: (job: WriteJob) => void;
  /** an application's active rules of a category changed (upsert, remove): the node-expiry watch follows its rules */
  onRulesChanged?: (appId: number, category: number) => void;
  /** several gateways share the state: the caller awaits `refresh` of the device before each evaluation (scale-out) */
  shared?: boolean;
  /**
   * Gateways that store their own devices' messages (PostgreSQL + NATS, docs/decisions/rules.md "Exactly once"): a
   * telemetry rule evaluates only a device's points newer than the newest it evaluated (`lastTs`, kept with the state),
   * so a message its device sends again after a lost acknowledgement does not fire twice.
   */
  evaluatedOnce?: boolean;
  /**
   * RULES_TRACE=on: one line per telemetry firing queued, per point skipped as evaluated already and per state read
   * back, each naming the device (what a firing missing after a fault is traced with); off: never called
   */
  trace?: (line: string) => void;
  now?: () => number;
  log?: Logger;
}

interface LiveState extends PersistedState {
  /** which groups held at their last evaluation (bit per group) */
  mask: number;
  timer?: NodeJS.Timeout;
}

interface AppIndex {
  /** device id (0: any device) → "sensor\u0001config\u0001param" → rules */
  exact: Map<number, Map<string, Set<CompiledRule>>>;
  /** device id (0: any) → rules with a clause that leaves a selector open: checked for every point of the device */
  partial: Map<number, Set<CompiledRule>>;
  /** event category → rules */
  events: Map<number, Set<CompiledRule>>;
}

/** how often a device's state read is tried again while the storage is unavailable */
const STATE_READ_RETRY_MS = 250;
const SEP = '\u0001';
const pointKey = (sensor: string, config: string, param: string) => sensor + SEP + config + SEP + param;

export interface RuleEngine {
  /** adds or replaces a rule (inactive rules: call `remove`) */
  upsert(rule: RuleRecord | CompiledRule): void;
  /** forgets a rule and its state */
  remove(ruleId: number): void;
  telemetry(e: TelemetryEvent): void;
  event(e: DeviceEvent): void;
  /** drops the state of a removed device (its timers too) */
  deviceRemoved(deviceId: number): void;
  /** re-arms the pending durations and active phases kept by the store (after the rules are loaded) */
  restore(): Promise<void>;
  /**
   * Scale-out: reads the device's states from the store into memory (another gateway may have moved them), to await
   * before `telemetry`/`event` of that device; the group memory (which groups held) stays this gateway's.
   */
  refresh(deviceId: number): Promise<void>;
  rule(ruleId: number): CompiledRule | undefined;
  /** whether any active rule of the application exists (the committed-telemetry hook returns at once otherwise) */
  watching(appId: number): boolean;
  /**
   * Whether a telemetry rule (11, 12) may watch a point of this device: the committed-telemetry hook builds the
   * engine's points only then (most devices of a fleet have no rule of their own).
   */
  watchingDevice(appId: number, deviceId: number): boolean;
  /** whether the application has an active rule of this event category (31: the hook parses state values only then) */
  watchingEvent(appId: number, category: number): boolean;
  /** the active rules of one event category of an application */
  rulesOf(appId: number, category: number): CompiledRule[];
  state(ruleId: number, deviceId: number): Readonly<PersistedState> | undefined;
  /**
   * `messages`: committed messages evaluated (of devices a rule watches); `writes`, `write_ms`, `max_write_ms`: the
   * state and task writes handed to `write` (a firing, a phase change), with the time the caller's thread spent on
   * the hand-over — on SQLite the write queue begins the transaction and runs its first statements at once, the rest
   * follows within the same turn; on PostgreSQL only the queueing.
   */
  metrics(): {
    rules: number;
    checks: number;
    messages: number;
    events: number;
    fired: number;
    suppressed: number;
    pending: number;
    writes: number;
    write_ms: number;
    max_write_ms: number;
  };
  close(): void;
}

export function createRuleEngine(opts: RuleEngineOptions): RuleEngine {
  const { store, onFire, trace } = opts;
  const now = opts.now ?? Date.now;
  const write =
    opts.write ??
    ((job: WriteJob) => void job().catch((err) => opts.log?.error('rule engine: a state or task write failed', err)));
  const rules = new Map<number, CompiledRule>();
  const apps = new Map<number, AppIndex>();
  /** rule id → device id → state */
  const states = new Map<number, Map<number, LiveState>>();
  const counter = { checks: 0 };
  const m = { messages: 0, events: 0, fired: 0, suppressed: 0 };
  const w = { writes: 0, write_ms: 0, max_write_ms: 0 };
  /** runs one write and counts its time (see metrics) */
  function timed(fn: () => void) {
    const started = performance.now();
    try {
      fn();
    } finally {
      const took = performance.now() - started;
      w.writes++;
      w.write_ms += took;
      if (took > w.max_write_ms) w.max_write_ms = took;
    }
  }
  let closed = false;

  const appIndex = (appId: number) => {
    let a = apps.get(appId);
    if (!a) apps.set(appId, (a = { exact: new Map(), partial: new Map(), events: new Map() }));
    return a;
  };
  const addTo = <K, V>(map: Map<K, Set<V>>, k: K, v: V) => {
    let s = map.get(k);
    if (!s) map.set(k, (s = new Set()));
    s.add(v);
  };

  function index(r: CompiledRule) {
    const a = appIndex(r.appId);
    if (r.category !== 11 && r.category !== 12) {
      addTo(a.events, r.category, r);
      return;
    }
    const groups = r.clear ? [...r.groups, r.clear] : r.groups;
    for (const g of groups) {
      const dev = g.deviceId ?? 0;
      for (const c of g.clauses) {
        const { sensor, config, param } = c.sel;
        if (sensor !== undefined && config !== undefined && param !== undefined) {
          let byKey = a.exact.get(dev);
          if (!byKey) a.exact.set(dev, (byKey = new Map()));
          addTo(byKey, pointKey(sensor, config, param), r);
        } else addTo(a.partial, dev, r);
      }
    }
  }

  /** drops the rule from every index entry, and the entries it leaves empty (watchingDevice answers from them) */
  function unindex(r: CompiledRule) {
    const a = apps.get(r.appId);
    if (!a) return;
    const events = a.events.get(r.category);
    if (events?.delete(r) && events.size === 0) a.events.delete(r.category);
    for (const [dev, byKey] of a.exact) {
      for (const [k, set] of byKey) if (set.delete(r) && set.size === 0) byKey.delete(k);
      if (byKey.size === 0) a.exact.delete(dev);
    }
    for (const [dev, set] of a.partial) if (set.delete(r) && set.size === 0) a.partial.delete(dev);
    if (a.events.size === 0 && a.exact.size === 0 && a.partial.size === 0) apps.delete(r.appId);
  }

  function dropTimers(ruleId: number) {
    for (const s of states.get(ruleId)?.values() ?? []) clearTimeout(s.timer);
  }

  // ---- state ----

  function live(rule: CompiledRule, deviceId: number): LiveState {
    let byDevice = states.get(rule.id);
    if (!byDevice) states.set(rule.id, (byDevice = new Map()));
    let s = byDevice.get(deviceId);
    if (!s)
      byDevice.set(
        deviceId,
        (s = {
          ruleId: rule.id,
          deviceId,
          phase: 'idle',
          since: 0,
          due: null,
          value: null,
          lastFireTs: null,
          lastTs: null,
          mask: 0,
        }),
      );
    return s;
  }

  /** the state as the evaluation that queues a write left it (what that write persists) */
  const snapshot = (s: LiveState): PersistedState => ({
    ruleId: s.ruleId,
    deviceId: s.deviceId,
    phase: s.phase,
    since: s.since,
    due: s.due,
    value: s.value,
    lastFireTs: s.lastFireTs,
    lastTs: s.lastTs,
  });

  /**
   * Writes `at`, the state when the write was queued, never the state as it is when the write runs: a later
   * evaluation's firing is written by its own job, in its own transaction maybe, so a state read at run time could
   * commit "fired" (and `lastTs` past the crossing) without its task, and a gateway killed before the next commit
   * would leave a state that makes the resent crossing look evaluated. A state the engine dropped meanwhile (rule or
   * device removed) is left alone.
   */
  async function persist(s: LiveState, at: PersistedState) {
    if (states.get(s.ruleId)?.get(s.deviceId) !== s) return;
    if (at.phase === 'idle' && at.lastFireTs === null && at.lastTs === null) await store.remove(at.ruleId, at.deviceId);
    else await store.write(at);
  }

  const asText = (v: unknown) => (v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v));

  /** Fires (or, within the cooldown, only records the transition) and persists, in one transaction. */
  function fire(
    rule: CompiledRule,
    s: LiveState,
    ts: number,
    value: unknown,
    point: EnginePoint | null,
    appId: number,
    next: Phase,
  ) {
    clearTimeout(s.timer);
    s.timer = undefined;
    const cooling = rule.cooldownMs > 0 && s.lastFireTs !== null && ts - s.lastFireTs < rule.cooldownMs;
    s.phase = next;
    s.since = ts;
    s.due = null;
    s.value = asText(value);
    if (!cooling) s.lastFireTs = ts;
    // pulse rules keep no state unless a cooldown needs the last firing
    if (rule.kind === 'pulse' && rule.cooldownMs === 0) s.lastFireTs = null;
    const firing: Firing | null = cooling
      ? null
      : {
          rule,
          appId,
          deviceId: s.deviceId,
          ts,
          value,
          point: point
            ? {
                sensor: point.sensor,
                config: point.config,
                param: point.subparam ? `${point.param}.${point.subparam}` : point.param,
              }
            : null,
        };
    const at = snapshot(s);
    try {
      timed(() =>
        write(() => {
          // the state and the firing's task are rows of their own: both are started at once, in the job's transaction
          const stored = persist(s, at);
          // a rule removed before its firing was written creates nothing
          if (!firing || !rules.has(rule.id)) return stored;
          // both run to their end before the job settles (never a query of one after the transaction rolled back)
          return Promise.allSettled([stored, onFire(firing)]).then((done) => {
            for (const d of done) if (d.status === 'rejected') throw d.reason;
          });
        }),
      );
      if (cooling) m.suppressed++;
      else m.fired++;
    } catch (err) {
      opts.log?.error(`rule ${rule.id}: firing for device ${s.deviceId} failed`, err);
    }
  }

  function arm(rule: CompiledRule, s: LiveState, appId: number) {
    clearTimeout(s.timer);
    if (closed || s.due === null) return;
    const since = s.since;
    s.timer = setTimeout(
      () => {
        s.timer = undefined;
        const due = () => {
          const current = rules.get(rule.id);
          if (!current || closed) return;
          const fresh = live(current, s.deviceId);
          if (fresh.phase !== 'pending' || fresh.since !== since) return;
          const value = fresh.value === null ? null : parseValue(fresh.value);
          fire(current, fresh, fresh.due ?? now(), value, null, appId, 'active');
        };
        // scale-out: another gateway may have moved the state meanwhile
        if (opts.shared)
          refresh(s.deviceId).then(due, (err) => opts.log?.error(`rule ${rule.id}: state not read`, err));
        else due();
      },
      Math.max(0, s.due - now()),
    );
    s.timer.unref?.();
  }

  /**
   * The device's states read back. A storage fault (PostgreSQL restarting) is waited out, tried again every
   * STATE_READ_RETRY_MS until the engine closes: the caller's evaluation (and the acknowledgements gated on it) waits
   * with it. Evaluating without the read would use a state another gateway may have moved; skipping the evaluation
   * would lose its crossings (a point never evaluated leaves the state where it was, and the next crossing looks like
   * none).
   */
  function refresh(deviceId: number): Promise<void> {
    return waitOutStorageFaults(() => readBack(deviceId), {
      retryMs: STATE_READ_RETRY_MS,
      stopping: () => closed,
      waiting: () => opts.log?.warn(`rules: device ${deviceId} waits for its states (storage unavailable)`),
    });
  }
  async function readBack(deviceId: number) {
    const stored = new Map((await store.ofDevice(deviceId)).map((p) => [p.ruleId, p]));
    if (trace) {
      const rows = [...stored.values()].map(
        (p) => `rule ${p.ruleId} ${p.phase}, fired ${p.lastFireTs}, to ${p.lastTs}`,
      );
      trace(`rules: device ${deviceId} states read back: ${rows.join('; ') || 'none'}`);
    }
    for (const [ruleId, byDevice] of states) {
      const s = byDevice.get(deviceId);
      if (!s || stored.has(ruleId)) continue;
      if (s.phase !== 'idle' || s.lastFireTs !== null || s.lastTs !== null)
        Object.assign(s, { phase: 'idle', since: 0, due: null, value: null, lastFireTs: null, lastTs: null });
    }
    for (const p of stored.values()) {
      const rule = rules.get(p.ruleId);
      if (rule) Object.assign(live(rule, deviceId), p);
    }
  }

  const parseValue = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  };

  function setPhase(s: LiveState, phase: Phase, ts: number, due: number | null = null, value: unknown = null) {
    clearTimeout(s.timer);
    s.timer = undefined;
    s.phase = phase;
    s.since = ts;
    s.due = due;
    s.value = asText(value);
    const at = snapshot(s);
    try {
      timed(() => write(() => persist(s, at)));
    } catch (err) {
      opts.log?.error(`rule ${s.ruleId}: state of device ${s.deviceId} not stored`, err);
    }
  }

  /** One evaluation of a level rule: the transitions of the state machine. */
  function step(
    rule: CompiledRule,
    appId: number,
    deviceId: number,
    points: readonly EnginePoint[],
    pointTs: number,
    once = false,
  ) {
    const s = live(rule, deviceId);
    if (once) {
      // evaluated once: the points at or before the newest this rule evaluated for the device were evaluated already
      const last = s.lastTs;
      if (last !== null && pointTs <= last) {
        trace?.(
          `rules: device ${deviceId} rule ${rule.id} point ${pointTs} skipped (evaluated to ${last}, ${s.phase})`,
        );
        return;
      }
      if (last !== null) points = points.filter((p) => p.ts > last);
      s.lastTs = pointTs;
    }
    // durations run on the engine's clock: a device's own (late, backfilled) timestamps never make a duration due at once
    const ts = Math.max(pointTs, now());
    let known = false;
    let hit: EnginePoint | null = null;
    let mask = s.mask;
    for (let gi = 0; gi < rule.groups.length; gi++) {
      const r = evalGroup(rule.groups[gi]!, deviceId, points, counter);
      if (!r) continue;
      known = true;
      if (r.truth) {
        mask |= 1 << gi;
        hit ??= r.point;
      } else mask &= ~(1 << gi);
    }
    const clear = rule.clear ? evalGroup(rule.clear, deviceId, points, counter) : null;
    if (!known && !clear) return;
    s.mask = mask;
    const matching = mask !== 0;
    switch (s.phase) {
      case 'idle':
        if (!matching) return;
        if (rule.durationMs > 0) {
          setPhase(s, 'pending', ts, ts + rule.durationMs, hit?.value ?? null);
          arm(rule, s, appId);
        } else {
          trace?.(`rules: device ${deviceId} rule ${rule.id} point ${pointTs} fires`);
          fire(rule, s, ts, hit?.value ?? null, hit, appId, 'active');
        }
        return;
      case 'pending':
        if (!matching) setPhase(s, 'idle', ts);
        else if (s.due !== null && ts >= s.due) fire(rule, s, ts, hit?.value ?? null, hit, appId, 'active');
        return;
      case 'active':
        if (rule.clear ? clear?.truth === true : known && !matching) setPhase(s, 'idle', ts);
        return;
    }
  }

  /** A pulse rule: every event its groups accept fires (within the cooldown: not). */
  function pulse(rule: CompiledRule, e: DeviceEvent, point: EnginePoint) {
    // node-expired events carry the silence threshold they crossed: each rule answers its own expiry
    if (rule.category === 10009 && Number(e.value) !== expiryOf(rule.durationMs)) return;
    let accepted = rule.groups.length === 0;
    for (const g of rule.groups) {
      const r = evalGroup(g, e.deviceId, [point], counter);
      if (r?.truth) {
        accepted = true;
        break;
      }
    }
    if (!accepted) return;
    const s = live(rule, e.deviceId);
    // a state event's key travels as the firing's sensor ({{sensor}} in the templates)
    fire(rule, s, e.ts, e.value ?? null, e.key ? point : null, e.appId, 'idle');
  }

  const touched = new Set<CompiledRule>();
  const once = opts.evaluatedOnce === true;
  const perApp = new Map<number, number>();

  return {
    upsert(input) {
      const r = 'groups' in input ? input : compileRule(input);
      const before = rules.get(r.id);
      if (before) {
        unindex(before);
        // a changed definition starts over: pending durations and the group memory belong to the old one
        dropTimers(r.id);
        for (const s of states.get(r.id)?.values() ?? []) {
          s.mask = 0;
          if (s.phase === 'pending') setPhase(s, 'idle', now());
        }
      }
      if (!before) perApp.set(r.appId, (perApp.get(r.appId) ?? 0) + 1);
      rules.set(r.id, r);
      index(r);
      opts.onRulesChanged?.(r.appId, r.category);
    },
    remove(ruleId) {
      const r = rules.get(ruleId);
      if (r) {
        unindex(r);
        const n = (perApp.get(r.appId) ?? 1) - 1;
        if (n > 0) perApp.set(r.appId, n);
        else perApp.delete(r.appId);
      }
      dropTimers(ruleId);
      rules.delete(ruleId);
      states.delete(ruleId);
      if (r) opts.onRulesChanged?.(r.appId, r.category);
      // in order with the rule's writes queued before
      write(() => store.removeRule(ruleId));
    },
    telemetry(e) {
      m.messages++;
      const a = apps.get(e.appId);
      if (!a) return;
      touched.clear();
      const exactDev = a.exact.get(e.deviceId);
      const exactAny = a.exact.get(0);
      if (exactDev || exactAny) {
        for (const p of e.points) {
          const k = pointKey(p.sensor, p.config, p.param);
          exactDev?.get(k)?.forEach((r) => touched.add(r));
          exactAny?.get(k)?.forEach((r) => touched.add(r));
          if (p.subparam) {
            const ks = k + '.' + p.subparam;
            exactDev?.get(ks)?.forEach((r) => touched.add(r));
            exactAny?.get(ks)?.forEach((r) => touched.add(r));
          }
        }
      }
      a.partial.get(e.deviceId)?.forEach((r) => touched.add(r));
      a.partial.get(0)?.forEach((r) => touched.add(r));
      if (touched.size === 0) return;
      let ts = 0;
      for (const p of e.points) if (p.ts > ts) ts = p.ts;
      for (const r of [...touched]) step(r, e.appId, e.deviceId, e.points, ts, once);
    },
    event(e) {
      m.events++;
      const set = apps.get(e.appId)?.events.get(e.category);
      if (!set || set.size === 0) return;
      const point: EnginePoint = { sensor: e.key ?? '', config: '', param: '', value: e.value ?? null, ts: e.ts };
      for (const r of [...set]) {
        if (r.kind === 'pulse') pulse(r, e, point);
        else step(r, e.appId, e.deviceId, [point], e.ts);
      }
    },
    deviceRemoved(deviceId) {
      for (const byDevice of states.values()) {
        const s = byDevice.get(deviceId);
        if (!s) continue;
        clearTimeout(s.timer);
        byDevice.delete(deviceId);
      }
      write(() => store.removeDevice(deviceId));
    },
    async restore() {
      for (const p of await store.all()) {
        const rule = rules.get(p.ruleId);
        if (!rule) continue;
        let byDevice = states.get(p.ruleId);
        if (!byDevice) states.set(p.ruleId, (byDevice = new Map()));
        const s: LiveState = { ...p, mask: p.phase === 'active' ? 1 : 0 };
        byDevice.set(p.deviceId, s);
        if (s.phase === 'pending') arm(rule, s, rule.appId);
      }
    },
    refresh,
    rule: (id) => rules.get(id),
    watching: (appId) => perApp.has(appId),
    watchingDevice(appId, deviceId) {
      const a = apps.get(appId);
      return (
        a !== undefined && (a.exact.has(deviceId) || a.exact.has(0) || a.partial.has(deviceId) || a.partial.has(0))
      );
    },
    watchingEvent: (appId, category) => apps.get(appId)?.events.has(category) === true,
    rulesOf: (appId, category) => [...(apps.get(appId)?.events.get(category) ?? [])],
    state(ruleId, deviceId) {
      const s = states.get(ruleId)?.get(deviceId);
      return s && snapshot(s);
    },
    metrics() {
      let pending = 0;
      for (const byDevice of states.values()) for (const s of byDevice.values()) if (s.phase === 'pending') pending++;
      return {
        rules: rules.size,
        checks: counter.checks,
        ...m,
        pending,
        writes: w.writes,
        write_ms: Math.round(w.write_ms),
        max_write_ms: Math.round(w.max_write_ms * 10) / 10,
      };
    },
    close() {
      closed = true;
      for (const id of states.keys()) dropTimers(id);
    },
  };
}
