// Composes rules and tasks: the engine fed by committed telemetry and device events, the rule and task calls, the
// live task channel and the node-expiry watch. What app.ts mounts and closes.
import type Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import { rulesContract, tasksContract, TASK_ACCESS, TASK_LIVE, type CallDef, type TaskPush } from '@sentra/contracts';
import type { Db } from '../../db.js';
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
import { createTasksService } from '../tasks/tasks.service.js';
import type { EnginePoint } from './compile.js';
import { createRuleEngine } from './engine.js';
import { engineEventsOf, publishDeviceEvent, type DeviceEventMessage } from './events.js';
import { createExpiryWatch } from './expiry.js';
import { storedLastHeard } from './expiry-seed.js';
import { testRule } from './rule-test.js';
import { createRulesService } from './rules.service.js';
import { createRuleStateStore } from './state-store.js';
import { createSubscriptionWatch } from './subscription.js';
import { createWriteQueue } from './write-queue.js';
import { tenants as tenantsTable } from '../auth/auth.table.js';
import { accounts } from '../users/users.table.js';
import { applications } from '../apps/apps.table.js';

export const TASKS_CHANNEL = TASK_LIVE.channel;
export const tasksRoom = (appId: number) => `tasks.${appId}`;
const TASK_READ = { access: TASK_ACCESS } as unknown as CallDef;

export interface RulesDomainDeps {
  db: Db;
  sqlite: Database.Database;
  bus: Bus;
  telemetry: Pick<TelemetryPipeline, 'subscribe' | 'series' | 'reads' | 'points'>;
  devices: Pick<DeviceService, 'on' | 'rowOf'>;
  outbox: Outbox;
  now?: () => number;
  log: Logger;
}

export function createRulesDomain({
  db,
  sqlite,
  bus,
  telemetry,
  devices,
  outbox,
  now = Date.now,
  log,
}: RulesDomainDeps) {
  const tasks = createTasksService({ db, outbox, bus, now, log });
  const shared = bus.kind === 'nats';
  // one gateway: the engine's writes never make the event loop wait for the write lock (write-queue.ts). Scale-out
  // reads each state from the table before a step, so there every write lands at once, as before.
  const writes = shared ? undefined : createWriteQueue({ sqlite, transact: tasks.transact, log });
  // the node-expiry watch follows the node-expired rules; while the rules load at start their applications are only
  // noted, and seeded once every rule is in (so a device's already reported expiries are known for all its rules)
  let loading: Set<number> | null = null;
  const onRulesChanged = (appId: number, category: number) => {
    if (category !== 10009) return;
    if (loading) loading.add(appId);
    else expiry.rulesChanged(appId);
  };
  const engine = createRuleEngine({
    store: createRuleStateStore(sqlite),
    onFire: tasks.fire,
    transact: tasks.transact,
    write: writes?.run,
    onRulesChanged,
    shared,
    now,
    log,
  });
  const rules = createRulesService({ db, engine, bus, onRemoved: tasks.ruleRemoved, now, log });
  const subs: BusSubscription[] = [];
  const unsubs: Array<() => void> = [];

  // ---- telemetry: categories 11, 12 (points) and 31 (states) ----
  const expiry = createExpiryWatch({
    engine,
    publish: (appId, deviceId, silenceS) =>
      publishDeviceEvent(bus, { appId, deviceId, kind: 'expired', ts: now(), value: silenceS }),
    seed: storedLastHeard({ db, engine, points: telemetry.points }),
    now,
  });
  /** Evaluates one committed message: cheap for a device no rule watches (two map lookups, no point built). */
  function onCommitted(b: CommittedTelemetry) {
    if (!engine.watching(b.appId)) return;
    if (b.points.length && engine.watchingDevice(b.appId, b.deviceId)) {
      const points: EnginePoint[] = [];
      for (const p of b.points) {
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
  // One gateway: one listener on the pipeline's commits runs the engine and the expiry watch. Scale-out: every commit
  // is published on `stored.<app>.<device>` by the gateway that wrote it and the `rule-engine` queue group hands each
  // to exactly one gateway's engine, while the expiry watch hears every commit on every gateway (the pipeline's
  // listener gets the others' commits too), so a device is never thought silent because it was evaluated elsewhere.
  if (bus.kind === 'nats') {
    subs.push(
      bus.subscribe<{ batch: CommittedTelemetry }>('stored.>', ({ data }) => onCommitted(data.batch), {
        queue: 'rule-engine',
      }),
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
    tenants: () => {
      const apps = db.select({ id: applications.id, tenantId: applications.tenantId }).from(applications).all();
      return db
        .select({ tenantId: tenantsTable.id, expiresAt: tenantsTable.billingExpiresAt })
        .from(tenantsTable)
        .all()
        .map((t) => ({ ...t, appIds: apps.filter((a) => a.tenantId === t.tenantId).map((a) => a.id) }));
    },
    publish: (appId, daysLeft) =>
      publishDeviceEvent(bus, { appId, deviceId: 0, kind: 'subscription-ending', ts: now(), value: daysLeft }),
    now,
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
        for (const e of engineEventsOf(data)) engine.event(e);
        if (data.kind === 'online' || data.kind === 'offline') expiry.heard(data.appId, data.deviceId);
        // after the 119 rules ran: the device's state goes, rules watching only it are switched off
        if (data.kind === 'deleted') {
          expiry.forget(data.deviceId);
          rules.deviceRemoved(data.appId, data.deviceId);
        }
      },
      { queue: 'rule-engine' },
    ),
  );

  const appOf = (caller: Caller) => caller.app!.id;
  /** who a task's history names for a change: the tenant's or the application user's username */
  const actorOf = (caller: Caller): string | null => {
    if (caller.kind === 'tenant')
      return (
        db.select({ u: tenantsTable.username }).from(tenantsTable).where(eq(tenantsTable.id, caller.tenantId)).get()
          ?.u ?? null
      );
    if (caller.kind === 'member' && caller.accountId !== undefined)
      return (
        db.select({ u: accounts.username }).from(accounts).where(eq(accounts.id, caller.accountId)).get()?.u ?? null
      );
    return null;
  };
  const routes = [
    ...implement(rulesContract, {
      list: ({ caller, input }) => rules.list(appOf(caller), input),
      get: ({ caller, input }) => ({ data: rules.get(appOf(caller), input.id) }),
      add: ({ caller, input }) => ({ data: rules.add(appOf(caller), input) }),
      edit: ({ caller, input }) => ({ data: rules.edit(appOf(caller), input) }),
      activate: ({ caller, input }) => ({ data: rules.activate(appOf(caller), input.id, input.active) }),
      remove: ({ caller, input }) => rules.remove(appOf(caller), input.id),
      test: async ({ caller, input }) => {
        const appId = appOf(caller);
        const device = await devices.rowOf(appId, input.device_id);
        const end = input.end ?? now();
        const start = end - input.hours * 3_600_000;
        return testRule(
          { appId, deviceId: device.id, category: input.category, condition: input.condition, start, end },
          { series: telemetry.reads.seriesOfDevice(appId, device.id), points: telemetry.points },
        );
      },
    }),
    ...implement(tasksContract, {
      list: ({ caller, input }) => tasks.list(appOf(caller), input),
      get: ({ caller, input }) => ({ data: tasks.get(appOf(caller), input.id) }),
      timeline: ({ caller, input }) => ({ events: tasks.timeline(appOf(caller), input.id) }),
      notificationActivate: ({ caller, input }) => ({
        data: tasks.setNotification(appOf(caller), input.id, input.active, actorOf(caller)),
      }),
      remove: ({ caller, input }) => tasks.remove(appOf(caller), input.id),
      changeStatus: ({ caller, input }) => ({
        data: tasks.changeStatus(appOf(caller), input.id, input.status, actorOf(caller)),
      }),
    }),
  ];

  return {
    engine,
    rules,
    tasks,
    /** the engine's queued writes (one gateway; undefined with NATS): `metrics()`, `flush()` */
    writes,
    routes,
    /** the state-removal hook of the states calls (32) */
    stateRemoved: (appId: number, deviceId: number, key: string) =>
      publishDeviceEvent(bus, { appId, deviceId, kind: 'state-deleted', ts: now(), key }),
    /** loads the active rules and the kept engine state; seeds and starts the expiry watch */
    start() {
      loading = new Set();
      try {
        rules.load();
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
    close() {
      expiry.close();
      subscription.close();
      // what the engine decided is written before the database closes
      writes?.flush();
      engine.close();
      rules.close();
      for (const s of subs) s.unsubscribe();
      for (const u of unsubs) u();
    },
  };
}

export type RulesDomain = ReturnType<typeof createRulesDomain>;
