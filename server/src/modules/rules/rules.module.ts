// Composes rules and tasks: the engine fed by committed telemetry and device events, the rule and task calls, the
// live task channel and the node-expiry watch. What app.ts mounts and closes.
import { rulesContract, tasksContract, TASK_ACCESS, TASK_LIVE, type CallDef, type TaskPush } from '@sentra/contracts';
import type { AppStore } from '../../db.js';
import type { Bus, BusSubscription } from '../../platform/bus/types.js';
import { invalid } from '../../platform/http/errors.js';
import { authorize, implement, type Caller } from '../../platform/http/mount.js';
import type { Logger } from '../../platform/log.js';
import type { Realtime } from '../../platform/realtime/types.js';
import type { DeviceService } from '../devices/devices.service.js';
import type { Outbox } from '../notifications/outbox.js';
import { decodeValue } from '../telemetry/datatypes.js';
import type { TelemetryPipeline } from '../telemetry/ingest/pipeline.js';
import type { CommittedTelemetry } from '../telemetry/store/writer.js';
import { createTasksService, type TaskApp } from '../tasks/tasks.service.js';
import { createTasksStore } from '../tasks/tasks.store.js';
import type { EnginePoint } from './compile.js';
import { createRuleEngine } from './engine.js';
import { engineEventsOf, publishDeviceEvent, type DeviceEventMessage } from './events.js';
import { createExpiryWatch } from './expiry.js';
import { storedLastHeard, type LastHeardSources } from './expiry-seed.js';
import { testRule } from './rule-test.js';
import { createRulesService } from './rules.service.js';
import { createRulesStore } from './rules.store.js';
import { createRuleStateStore } from './state-store.js';
import { createSubscriptionWatch } from './subscription.js';
import { createWriteQueue } from './write-queue.js';

export const TASKS_CHANNEL = TASK_LIVE.channel;
export const tasksRoom = (appId: number) => `tasks.${appId}`;
const TASK_READ = { access: TASK_ACCESS } as unknown as CallDef;

/** What rules and tasks ask of the other domains (app.ts passes their stores' reads). */
export interface RulesDomainReads extends Pick<LastHeardSources, 'presenceOf' | 'seriesOf'> {
  /** the application a task's messages name (apps) */
  appOf: (appId: number) => Promise<TaskApp | undefined>;
  /** every application's tenant (apps) */
  appTenants: () => Promise<Array<{ id: number; tenantId: number }>>;
  /** a tenant's billing date, 0 for none (auth) */
  billingOf: (tenantId: number) => Promise<number>;
  /** who a change names: the tenant's username (auth), the application user's (users) */
  tenantUsername: (tenantId: number) => Promise<string | undefined>;
  accountOf: (appId: number, accountId: number) => Promise<{ username: string } | undefined>;
  /** the application's device (devices): its name and serial for a task and message; the ids of its devices */
  deviceOf: (appId: number, deviceId: number) => Promise<{ name: string; serialNumber: string } | undefined>;
  deviceIdsOf: (appId: number) => Promise<number[]>;
}

export interface RulesDomainDeps {
  /** rules, tasks, the engine's state (rule_states) and its firings' writes (write-queue.ts), on either engine */
  store: AppStore;
  reads: RulesDomainReads;
  bus: Bus;
  /** committed telemetry, the series of a committed point (memory), the reads of a rule test and the expiry seed */
  telemetry: Pick<TelemetryPipeline, 'subscribe' | 'series' | 'query'> &
    Partial<Pick<TelemetryPipeline, 'storesLocally' | 'gateAcks'>>;
  devices: Pick<DeviceService, 'on' | 'rowOf'>;
  /** a registered device connected to this gateway's broker (storing locally: its state is read again) */
  onDeviceConnected?: (fn: (deviceId: number) => void) => void;
  outbox: Outbox;
  now?: () => number;
  log: Logger;
  /** RULES_TRACE=on: where the engine's trace lines go (engine.ts `trace`) */
  trace?: (line: string) => void;
}

export function createRulesDomain({
  store,
  reads,
  bus,
  telemetry,
  devices,
  onDeviceConnected,
  outbox,
  now = Date.now,
  log,
  trace,
}: RulesDomainDeps) {
  const tasksStore = createTasksStore(store);
  const rulesStore = createRulesStore(store);
  const tx = <T>(fn: () => Promise<T>) => store.tx(fn);
  const tasks = createTasksService({
    store: tasksStore,
    tx,
    outbox,
    appOf: reads.appOf,
    deviceOf: reads.deviceOf,
    ruleOf: rulesStore.byId,
    bus,
    now,
    log,
  });
  const shared = bus.kind === 'nats';
  // PostgreSQL + NATS: each gateway stores (and so evaluates) its own devices' messages (docs/decisions/rules.md)
  const local = shared && telemetry.storesLocally === true;
  // the engine's writes, in order, in transactions of their own; on SQLite they never make the event loop wait for the
  // write lock (write-queue.ts). A firing's task push is published after its transaction commits.
  const writes = createWriteQueue({ store, committed: tasks.flush, rolledBack: tasks.discard, log });
  // the node-expiry watch follows the node-expired rules; while the rules load at start their applications are only
  // noted, and seeded once every rule is in (so a device's already reported expiries are known for all its rules)
  let loading: Set<number> | null = null;
  const onRulesChanged = (appId: number, category: number) => {
    if (category !== 10009) return;
    if (loading) loading.add(appId);
    else expiry.rulesChanged(appId);
  };
  const engine = createRuleEngine({
    store: createRuleStateStore(store),
    onFire: tasks.fire,
    write: writes.run,
    onRulesChanged,
    shared,
    evaluatedOnce: local,
    trace,
    now,
    log,
  });
  const rules = createRulesService({
    store: rulesStore,
    tx,
    deviceIdsOf: reads.deviceIdsOf,
    engine,
    bus,
    onRemoved: tasks.ruleRemoved,
    now,
    log,
  });
  const subs: BusSubscription[] = [];
  const unsubs: Array<() => void> = [];

  // ---- telemetry: categories 11, 12 (points) and 31 (states) ----
  const expiry = createExpiryWatch({
    engine,
    publish: (appId, deviceId, silenceS) =>
      publishDeviceEvent(bus, { appId, deviceId, kind: 'expired', ts: now(), value: silenceS }),
    seed: storedLastHeard({
      sources: { presenceOf: reads.presenceOf, seriesOf: reads.seriesOf, lastFired: tasksStore.lastFired },
      engine,
      points: telemetry.query.points,
    }),
    now,
    log,
  });
  /** Evaluates one committed message: cheap for a device no rule watches (two map lookups, no point built). */
  function onCommitted(b: CommittedTelemetry) {
    if (!engine.watching(b.appId)) return;
    // storing locally, a message sent again is evaluated once more: the engine skips the points it evaluated already
    const all = local && b.resent ? [...b.resent, ...b.points] : b.points;
    if (all.length && engine.watchingDevice(b.appId, b.deviceId)) {
      const points: EnginePoint[] = [];
      for (const p of all) {
        const s = telemetry.series(p.seriesId);
        if (s)
          points.push({
            sensor: s.sensor,
            config: s.configtype,
            param: s.param,
            subparam: s.subparam,
            value: decodeValue(s.datatype, p.num, p.text),
            ts: p.ts,
          });
      }
      if (points.length) engine.telemetry({ appId: b.appId, deviceId: b.deviceId, points });
    }
    if (b.states.length && engine.watchingEvent(b.appId, 31)) {
      for (const st of b.states) {
        let value: unknown = null;
        try {
          value = st.value === null ? null : JSON.parse(st.value);
        } catch {
          value = st.value;
        }
        engine.event({ appId: b.appId, deviceId: b.deviceId, category: 31, ts: st.ts, key: st.key, value });
      }
    }
  }
  /** whether a rule watches what the commit carries */
  const watched = (b: CommittedTelemetry) =>
    engine.watching(b.appId) &&
    ((b.points.length + (b.resent?.length ?? 0) > 0 && engine.watchingDevice(b.appId, b.deviceId)) ||
      (b.states.length > 0 && engine.watchingEvent(b.appId, 31)));
  // Scale-out: another gateway may have moved a device's state (the queue group hands consecutive messages of a device
  // to any gateway). So a device's evaluations here run one after the other, each after this gateway's queued writes
  // are in and the device's states are read back from rule_states; the evaluation itself stays synchronous.
  const turns = new Map<number, Promise<void>>();
  /**
   * Storing locally: the devices whose state in memory is current (read here since another gateway last stored for
   * them); their commits are evaluated at once, in order, without a read.
   */
  const current = new Set<number>();
  function inTurn(deviceId: number, evaluate: () => void, read = true) {
    if (!shared) return evaluate();
    const queued = turns.get(deviceId);
    if (!read && !queued) return evaluate();
    const next = (queued ?? Promise.resolve())
      .then(async () => {
        if (read) {
          // this gateway's writes first: the read must see them
          await writes.written();
          await engine.refresh(deviceId);
          if (local) current.add(deviceId);
        }
        evaluate();
      })
      .catch((err) => log.error(`rules: device ${deviceId} not evaluated`, err));
    turns.set(deviceId, next);
    void next.then(() => {
      if (turns.get(deviceId) === next) turns.delete(deviceId);
    });
  }
  // One gateway: one listener on the pipeline's commits runs the engine and the expiry watch. Scale-out: every commit
  // is published on `stored.<app>.<device>` by the gateway that wrote it and the `rule-engine` queue group hands each
  // to exactly one gateway's engine, while the expiry watch hears every commit on every gateway (the pipeline's
  // listener gets the others' commits too), so a device is never thought silent because it was evaluated elsewhere.
  if (local) {
    // Storing locally: a device's commits are this gateway's, evaluated here in order; its state is read when the
    // device is first seen here and again after another gateway stored for it (it moved, and maybe back).
    // A stored message's acknowledgement waits for the rule writes of its evaluation (exactly once: rules.md).
    // A device that connects here may have been stored for by another gateway meanwhile: its state is read again at
    // its next evaluation. The other gateways' commits say so too (`own` false below), but over core NATS, at most
    // once: one lost while NATS restarts would leave a device that moved away and back with this gateway's old state.
    onDeviceConnected?.((deviceId) => current.delete(deviceId));
    unsubs.push(
      telemetry.subscribe((b, own) => {
        expiry.heard(b.appId, b.deviceId);
        if (!own) return void current.delete(b.deviceId);
        if (!watched(b)) return;
        inTurn(b.deviceId, () => onCommitted(b), !current.has(b.deviceId));
      }),
    );
    telemetry.gateAcks?.((appId, deviceId) => {
      if (!engine.watching(appId) || !(engine.watchingDevice(appId, deviceId) || engine.watchingEvent(appId, 31)))
        return null;
      const turn = turns.get(deviceId);
      if (turn) return turn.then(() => writes.written());
      return writes.written();
    });
  } else if (bus.kind === 'nats') {
    subs.push(
      bus.subscribe<{ batch: CommittedTelemetry }>(
        'stored.>',
        ({ data }) => {
          const b = data.batch;
          // a device no rule watches costs no read of its states
          if (watched(b)) inTurn(b.deviceId, () => onCommitted(b));
        },
        { queue: 'rule-engine' },
      ),
    );
    unsubs.push(telemetry.subscribe((b) => expiry.heard(b.appId, b.deviceId)));
  } else
    unsubs.push(
      telemetry.subscribe((b) => {
        expiry.heard(b.appId, b.deviceId);
        onCommitted(b);
      }),
    );

  // ---- subscription ending (501): the billing dates read once, a timer per next notice ----
  const subscription = createSubscriptionWatch({
    tenants: async () => {
      const appIds = new Map<number, number[]>();
      for (const a of await reads.appTenants()) {
        let list = appIds.get(a.tenantId);
        if (!list) appIds.set(a.tenantId, (list = []));
        list.push(a.id);
      }
      return Promise.all(
        [...appIds].map(async ([tenantId, ids]) => ({
          tenantId,
          expiresAt: await reads.billingOf(tenantId),
          appIds: ids,
        })),
      );
    },
    publish: (appId, daysLeft) =>
      publishDeviceEvent(bus, { appId, deviceId: 0, kind: 'subscription-ending', ts: now(), value: daysLeft }),
    now,
    log,
  });

  // ---- device events: published where the change happens, evaluated once (queue group) ----
  devices.on('status', (row) =>
    publishDeviceEvent(bus, {
      appId: row.appId,
      deviceId: row.id,
      kind: row.online ? 'online' : 'offline',
      ts: now(),
      value: row.online ? 1 : 0,
    }),
  );
  devices.on('added', (row) =>
    publishDeviceEvent(bus, { appId: row.appId, deviceId: row.id, kind: 'created', ts: now() }),
  );
  devices.on('updated', (row) =>
    publishDeviceEvent(bus, { appId: row.appId, deviceId: row.id, kind: 'updated', ts: now() }),
  );
  devices.on('sensors', (row) =>
    publishDeviceEvent(bus, { appId: row.appId, deviceId: row.id, kind: 'sensors', ts: now() }),
  );
  devices.on('removed', (row) =>
    publishDeviceEvent(bus, { appId: row.appId, deviceId: row.id, kind: 'deleted', ts: now() }),
  );
  subs.push(
    bus.subscribe<DeviceEventMessage>(
      'dev.>',
      ({ data }) => {
        if (data.kind === 'online' || data.kind === 'offline') expiry.heard(data.appId, data.deviceId);
        inTurn(data.deviceId, () => {
          for (const e of engineEventsOf(data)) engine.event(e);
          // after the 119 rules ran: the device's state goes, rules watching only it are switched off
          if (data.kind === 'deleted') {
            expiry.forget(data.deviceId);
            rules
              .deviceRemoved(data.appId, data.deviceId)
              .catch((err) => log.error(`rules of removed device ${data.deviceId} not switched off`, err));
          }
        });
      },
      { queue: 'rule-engine' },
    ),
  );

  const appOf = (caller: Caller) => caller.app!.id;
  /** who a task's history names for a change: the tenant's or the application user's username */
  const actorOf = async (caller: Caller): Promise<string | null> => {
    if (caller.kind === 'tenant') return (await reads.tenantUsername(caller.tenantId)) ?? null;
    if (caller.kind === 'member' && caller.accountId !== undefined)
      return (await reads.accountOf(appOf(caller), caller.accountId))?.username ?? null;
    return null;
  };
  const routes = [
    ...implement(rulesContract, {
      list: ({ caller, input }) => rules.list(appOf(caller), input),
      get: async ({ caller, input }) => ({ data: await rules.get(appOf(caller), input.id) }),
      add: async ({ caller, input }) => ({ data: await rules.add(appOf(caller), input) }),
      edit: async ({ caller, input }) => ({ data: await rules.edit(appOf(caller), input) }),
      activate: async ({ caller, input }) => ({ data: await rules.activate(appOf(caller), input.id, input.active) }),
      remove: ({ caller, input }) => rules.remove(appOf(caller), input.id),
      test: async ({ caller, input }) => {
        const appId = appOf(caller);
        const device = await devices.rowOf(appId, input.device_id);
        const end = input.end ?? now();
        const start = end - input.hours * 3_600_000;
        return testRule(
          { appId, deviceId: device.id, category: input.category, condition: input.condition, start, end },
          { series: await telemetry.query.seriesOfDevice(appId, device.id), points: telemetry.query.points },
        );
      },
    }),
    ...implement(tasksContract, {
      list: ({ caller, input }) => tasks.list(appOf(caller), input),
      get: async ({ caller, input }) => ({ data: await tasks.get(appOf(caller), input.id) }),
      timeline: async ({ caller, input }) => ({ events: await tasks.timeline(appOf(caller), input.id) }),
      notificationActivate: async ({ caller, input }) => ({
        data: await tasks.setNotification(appOf(caller), input.id, input.active, await actorOf(caller)),
      }),
      remove: ({ caller, input }) => tasks.remove(appOf(caller), input.id),
      changeStatus: async ({ caller, input }) => ({
        data: await tasks.changeStatus(appOf(caller), input.id, input.status, await actorOf(caller)),
      }),
    }),
  ];

  return {
    engine,
    rules,
    tasks,
    /** the engine's queued writes: `metrics()`, `flush()`, `settled()` */
    writes,
    routes,
    /** the state-removal hook of the states calls (32) */
    stateRemoved: (appId: number, deviceId: number, key: string) =>
      publishDeviceEvent(bus, { appId, deviceId, kind: 'state-deleted', ts: now(), key }),
    /** loads the active rules and the kept engine state; seeds and starts the expiry watch */
    async start() {
      loading = new Set();
      try {
        await rules.load();
      } finally {
        const apps = loading;
        loading = null;
        for (const appId of apps) expiry.rulesChanged(appId);
      }
      expiry.start();
      subscription.start();
    },
    /** the `tasks` socket.io channel: every task change of the application, once per change (queue group) */
    attachRealtime(realtime: Realtime) {
      realtime.channel(TASKS_CHANNEL, {
        join: (caller) => {
          if (!caller.app) throw invalid('Header x-app-domain wajib diisi');
          authorize(caller, TASK_READ);
          return tasksRoom(caller.app.id);
        },
      });
      subs.push(
        bus.subscribe<TaskPush>(
          'task.>',
          ({ subject, data }) => {
            const appId = Number(subject.split('.')[1]);
            if (Number.isSafeInteger(appId)) realtime.emit(tasksRoom(appId), TASK_LIVE.event, data);
          },
          { queue: 'task-live' },
        ),
      );
    },
    /** stops the engine; resolves once what it decided is written (await it before the database closes) */
    async close() {
      expiry.close();
      subscription.close();
      engine.close();
      rules.close();
      for (const s of subs) s.unsubscribe();
      for (const u of unsubs) u();
      await Promise.all(turns.values());
      await writes.flush();
    },
  };
}

export type RulesDomain = ReturnType<typeof createRulesDomain>;
