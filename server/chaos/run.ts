// The chaos run (issue 37): devices publish QoS 1 through HAProxy to gateways on separate directories, one PostgreSQL
// and one NATS, while one gateway is killed with kill -9 (and later started again), NATS is restarted and PostgreSQL
// is restarted (fast). Then the figures: what was acknowledged is stored, nothing is stored twice, every crossing of a
// rule's threshold made exactly one firing, the longest gap a live viewer saw, and how long until every device that
// lost its gateway was online again by the registry. `npm run chaos` prints them; server/test/chaos.test.ts asserts
// them.
import fs from 'node:fs';
import mqtt, { type MqttClient } from 'mqtt';
import pg from 'pg';
import { io as connectIo } from 'socket.io-client';
import { DEVICE_DATA_LIVE, rulesContract } from '@sentra/contracts';
import { call } from '../test/harness.js';
import { addDevice, tenantWithApp } from '../test/fixtures.js';
import { sessionAuth } from '../src/platform/realtime/testing/client.js';
import { startCluster, type Cluster } from './cluster.js';

export interface ChaosOptions {
  devices?: number;
  gateways?: number;
  /** how long the devices publish (the faults fall within it) */
  seconds?: number;
  /** each device's pause between an acknowledgement and its next message */
  intervalMs?: number;
  /** QoS 1 messages a device keeps in flight (default 2) */
  window?: number;
  /** every how many devices one sends the value a rule watches (default 5) */
  ruleEvery?: number;
  /** the watched value stays below the threshold this many messages, then above as many, ... (default 10) */
  flipEvery?: number;
  log?: (line: string) => void;
}

export interface ChaosFigures {
  devices: number;
  gateways: number;
  seconds: number;
  acknowledged_points: number;
  stored_points: number;
  acknowledged_lost: number;
  duplicates_stored: number;
  rule_firings_expected: number;
  tasks_created: number;
  longest_live_gap_ms: number | null;
  all_online_ms: number | null;
  devices_reconnected: number;
  /** devices whose connection ended in each phase: from the kill, from the NATS restart, from PostgreSQL's */
  devices_dropped_by_phase: { kill: number; nats: number; postgres: number };
  resent_messages: number;
  /** devices whose crossings and firings differ (at most 20): the first crossing out of step (its point's time from the
   * start and its phase), firings minus crossings, and the device's connection drops (to tell which fault made it) */
  /** gateways that went down by themselves during the run (the faults are survived, never a reason to crash) */
  gateways_crashed: number;
  firings_mismatched: Array<{ device: number; at_ms: number; phase: string; fired: number; drops_ms: number[] }>;
  ok: boolean;
}

const THRESHOLD = 50;
/** the watched value: 10 for `flip` messages, 90 for the next `flip`, ... (a crossing every 2 × flip messages) */
const valueOf = (n: number, flip: number) => (Math.floor(n / flip) % 2 === 1 ? 90 : 10);

interface Sent {
  n: number;
  ts: number;
  payload: string;
}

/**
 * A device: up to `window` QoS 1 messages in flight, new ones `intervalMs` after an acknowledgement; the messages
 * not acknowledged when its connection drops are sent again, the same (same stated time and values) and in order, on
 * the next connection through HAProxy.
 */
class ChaosDevice {
  client: MqttClient | null = null;
  /** sent, not acknowledged yet, oldest first */
  pending: Sent[] = [];
  acked: Sent[] = [];
  next = 0;
  lastTs = 0;
  attempt = 0;
  stopping = false;
  stopped = false;
  resent = 0;
  drops: number[] = [];
  connects = 0;
  private done?: () => void;
  private timer?: NodeJS.Timeout;

  constructor(
    readonly d: { id: number; username: string; password: string },
    readonly watched: boolean,
    readonly port: number,
    readonly intervalMs: number,
    readonly window: number,
    readonly flip: number,
  ) {}

  connect() {
    if (this.stopped) return;
    const client = mqtt.connect(`mqtt://127.0.0.1:${this.port}`, {
      username: this.d.username,
      password: this.d.password,
      clientId: `chaos-${this.d.id}`,
      reconnectPeriod: 0,
      connectTimeout: 5000,
      keepalive: 15,
    });
    this.client = client;
    client.on('connect', () => {
      this.connects++;
      this.resent += this.pending.length;
      for (const m of this.pending) this.publish(m);
      this.fill();
    });
    client.on('error', () => {});
    client.on('close', () => {
      if (this.client !== client) return;
      this.client = null;
      this.attempt++;
      clearTimeout(this.timer);
      client.end(true);
      if (this.stopped) return;
      this.drops.push(Date.now());
      this.timer = setTimeout(() => this.connect(), 100 + Math.random() * 400);
    });
  }

  /** new messages up to the window, the first at once (a fresh connection), the others paced */
  private fill() {
    while (!this.stopping && this.client && this.pending.length < this.window) this.send();
  }

  private send() {
    const n = this.next++;
    const ts = (this.lastTs = Math.max(this.lastTs + 1, Date.now()));
    const data: Record<string, number> = { n };
    if (this.watched) data.v = valueOf(n, this.flip);
    const m = { n, ts, payload: JSON.stringify({ _ts: ts, env: { data } }) };
    this.pending.push(m);
    this.publish(m);
  }

  private publish(m: Sent) {
    const client = this.client;
    if (!client) return;
    const attempt = this.attempt;
    client.publish(`d/${this.d.id}/data`, m.payload, { qos: 1 }, (err) => {
      const at = this.pending.indexOf(m);
      if (err || attempt !== this.attempt || at < 0) return;
      this.pending.splice(at, 1);
      this.acked.push(m);
      if (this.stopping) {
        if (this.pending.length === 0) this.finish();
        return;
      }
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.fill(), this.intervalMs);
    });
  }

  private finish() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.client?.end(true);
    this.client = null;
    this.done?.();
  }

  /** stops after the messages in flight are acknowledged (sent again until they are), at most `ms` */
  stop(ms: number): Promise<void> {
    this.stopping = true;
    if (this.pending.length === 0) {
      this.finish();
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const t = setTimeout(() => (this.finish(), resolve()), ms);
      this.done = () => (clearTimeout(t), resolve());
    });
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** a socket.io viewer of one device's live data through HAProxy, reconnecting and subscribing again like the console */
function liveViewer(url: string, auth: Record<string, string>, deviceId: number) {
  const socket = connectIo(url, {
    auth,
    transports: ['websocket'],
    reconnectionDelay: 200,
    reconnectionDelayMax: 1000,
  });
  let last = 0;
  let longest = 0;
  let measuring = false;
  socket.on('connect', () => {
    void socket
      .timeout(5000)
      .emitWithAck('subscribe', { channel: DEVICE_DATA_LIVE.channel, params: { device_id: deviceId } })
      .catch(() => socket.disconnect().connect());
  });
  socket.on(DEVICE_DATA_LIVE.event, () => {
    const t = Date.now();
    if (measuring && last) longest = Math.max(longest, t - last);
    last = t;
  });
  return {
    start() {
      measuring = true;
      last = Date.now();
    },
    /** the longest gap between two pushes while measuring (the end counts as one) */
    stop(): number {
      if (measuring && last) longest = Math.max(longest, Date.now() - last);
      measuring = false;
      socket.close();
      return longest;
    },
  };
}

async function devicesOnline(db: pg.Pool, ids: number[], since: number): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    'select count(*) as n from devices where id = any($1) and online = 1 and last_online_ts >= $2',
    [ids, since],
  );
  return Number(rows[0]!.n);
}

export async function runChaos(o: ChaosOptions = {}): Promise<ChaosFigures> {
  const log = o.log ?? ((line: string) => process.stderr.write(`chaos: ${line}\n`));
  const nDevices = o.devices ?? 500;
  const nGateways = o.gateways ?? 3;
  const seconds = o.seconds ?? 60;
  const intervalMs = o.intervalMs ?? 500;
  const ruleEvery = o.ruleEvery ?? 5;
  const cluster: Cluster = await startCluster({ gateways: nGateways, log });
  const db = new pg.Pool({ connectionString: cluster.databaseUrl, max: 2 });
  db.on('error', () => {});
  const devices: ChaosDevice[] = [];
  try {
    const owner = await tenantWithApp(cluster.url);
    const auth = { tenant: owner.tenant, domain: owner.domain };
    // the devices, registered through HAProxy a few at a time
    const registered: Array<{ id: number; username: string; password: string }> = [];
    for (let k = 0; k < nDevices; k += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, nDevices - k) }, () => addDevice(cluster.url, auth, 'mqtt')),
      );
      for (const d of batch)
        registered.push({ id: d.id, username: d.store_mqtt_username, password: d.store_mqtt_password });
    }
    const rule = await call(
      cluster.url,
      rulesContract.add,
      {
        name: 'Nilai tinggi',
        category: 11,
        description: `v di atas ${THRESHOLD}`,
        trigger: [
          { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'SENSOR' }, op: '==', value: 'env' },
          { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'CONFIG' }, op: '==', value: 'data' },
          { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'PARAM' }, op: '==', value: 'v' },
          { node_type: 'INCOMING_DEVICE_DATA', field: { query: 'VALUE' }, op: '>', value: THRESHOLD },
        ],
        condition: {},
        action: { name: 'Catat', title: '{{device.name}}: v = {{value}}', new: [], response: [] },
      },
      auth,
    );
    if (rule.body.response_result !== 0) throw new Error(`rule not added: ${JSON.stringify(rule.body)}`);
    const ruleId = rule.body.data.id as number;
    // every gateway loads the rule (rules travel over NATS): wait until each has it
    await sleep(1000);
    log(`${registered.length} devices, rule ${ruleId}; streaming ${seconds} s`);

    for (const [k, d] of registered.entries())
      devices.push(
        new ChaosDevice(d, k % ruleEvery === 0, cluster.mqttPort, intervalMs, o.window ?? 2, o.flipEvery ?? 10),
      );
    for (const d of devices) d.connect();
    const viewer = liveViewer(cluster.url, sessionAuth(owner, owner.domain), registered[1]!.id);
    const t0 = Date.now();
    const at = async (s: number) => {
      const wait = t0 + s * 1000 - Date.now();
      if (wait > 0) await sleep(wait);
    };
    // every device connected before the faults begin
    for (let k = 0; k < 200 && devices.some((d) => d.connects === 0); k++) await sleep(100);
    viewer.start();

    // kill -9 of a gateway: its devices reconnect through HAProxy to the others
    await at(seconds * 0.15);
    const killAt = Date.now();
    await cluster.kill(0);
    log('gateway 0 killed (SIGKILL)');
    let allOnlineMs: number | null = null;
    const onlineWatch = (async () => {
      await sleep(1000);
      while (Date.now() - killAt < 60_000) {
        const dropped = devices.filter((d) => d.drops.some((t) => t >= killAt)).map((d) => d.d.id);
        if (dropped.length && (await devicesOnline(db, dropped, killAt).catch(() => -1)) === dropped.length) {
          allOnlineMs = Date.now() - killAt;
          log(`${dropped.length} devices of the killed gateway online again after ${allOnlineMs} ms`);
          return;
        }
        await sleep(100);
      }
    })();

    await at(seconds * 0.35);
    await cluster.restart(0);
    log('gateway 0 started again');
    await onlineWatch;

    await at(seconds * 0.5);
    const natsAt = Date.now();
    await cluster.restartNats();
    log('NATS restarted');

    await at(seconds * 0.7);
    const postgresAt = Date.now();
    await cluster.restartPostgres('fast');
    log('PostgreSQL restarted (fast)');

    await at(seconds);
    log('stopping the devices (each once its messages in flight are acknowledged)');
    await Promise.all(devices.map((d) => d.stop(30_000)));
    const longestGap = viewer.stop();

    // the figures, from what the devices sent and what the database holds
    const { rows } = await db.query<{ device_id: string; ts: string; num: number; param: string }>(
      `select s.device_id, p.ts, p.num, s.param from telemetry_points p join telemetry_series s on s.id = p.series_id
       where s.app_id = $1 and s.sensor = 'env' and s.configtype = 'data'`,
      [owner.appId],
    );
    const stored = new Map<number, Array<{ ts: number; n: number }>>();
    const watchedValues = new Map<number, Array<{ ts: number; v: number }>>();
    for (const r of rows) {
      const id = Number(r.device_id);
      if (r.param === 'n') {
        let l = stored.get(id);
        if (!l) stored.set(id, (l = []));
        l.push({ ts: Number(r.ts), n: Number(r.num) });
      } else if (r.param === 'v') {
        let l = watchedValues.get(id);
        if (!l) watchedValues.set(id, (l = []));
        l.push({ ts: Number(r.ts), v: Number(r.num) });
      }
    }
    let acknowledged = 0;
    let storedPoints = 0;
    let lost = 0;
    let duplicates = 0;
    let expected = 0;
    /** device → the times of its crossings */
    const crossings = new Map<number, number[]>();
    for (const dev of devices) {
      const rowsOf = stored.get(dev.d.id) ?? [];
      storedPoints += rowsOf.length;
      acknowledged += dev.acked.length;
      const storedTs = new Set(rowsOf.map((r) => r.ts));
      lost += dev.acked.filter((m) => !storedTs.has(m.ts)).length;
      // a message is one n: a row beyond the first of an n, or one whose time is not the one it was sent with, is twice
      const sentTs = new Map<number, number>();
      for (const m of dev.acked) sentTs.set(m.n, m.ts);
      for (const m of dev.pending) sentTs.set(m.n, m.ts);
      const seen = new Set<number>();
      for (const r of rowsOf) {
        if (seen.has(r.n) || (sentTs.has(r.n) && sentTs.get(r.n) !== r.ts)) duplicates++;
        seen.add(r.n);
      }
      if (dev.watched) {
        const values = (watchedValues.get(dev.d.id) ?? []).sort((a, b) => a.ts - b.ts);
        let above = false;
        const at: number[] = [];
        for (const { v, ts } of values) {
          if (v > THRESHOLD && !above) (expected++, at.push(ts));
          above = v > THRESHOLD;
        }
        crossings.set(dev.d.id, at);
      }
    }
    // the rule writes settle (a write held back by the PostgreSQL restart is retried): wait until the count holds
    const firings = async () =>
      Number(
        (
          await db.query<{ n: string }>('select coalesce(sum(occurrences), 0) as n from tasks where rule_id = $1', [
            ruleId,
          ])
        ).rows[0]!.n,
      );
    let tasks = await firings();
    for (let k = 0, same = 0; k < 150 && same < 15 && tasks !== expected; k++) {
      await sleep(200);
      const now = await firings();
      same = now === tasks ? same + 1 : 0;
      tasks = now;
    }
    // which crossing went without its firing (or fired twice), from the tasks' timelines: a firing is a task created or
    // an occurrence, timed by the engine's clock (never before its point's time, and normally before the next crossing)
    const firedAt = new Map<number, number[]>();
    for (const r of (
      await db.query<{ device_id: string; ts: string }>(
        `select t.device_id, e.ts from task_events e join tasks t on t.id = e.task_id
         where t.rule_id = $1 and e.kind in ('created', 'occurrence') order by e.ts`,
        [ruleId],
      )
    ).rows) {
      const id = Number(r.device_id);
      let l = firedAt.get(id);
      if (!l) firedAt.set(id, (l = []));
      l.push(Number(r.ts));
    }
    const phaseOf = (ts: number) =>
      ts < killAt ? 'before' : ts < natsAt ? 'kill' : ts < postgresAt ? 'nats' : 'postgres';
    const mismatched: ChaosFigures['firings_mismatched'] = [];
    for (const dev of devices) {
      const want = crossings.get(dev.d.id) ?? [];
      const got = firedAt.get(dev.d.id) ?? [];
      if (want.length === got.length || mismatched.length >= 20) continue;
      // the first crossing whose firing is missing (the next one's taken its place) or doubled (one more before the next)
      let k = 0;
      while (
        k < want.length &&
        k < got.length &&
        got[k]! >= want[k]! &&
        (k + 1 >= want.length || got[k]! < want[k + 1]!)
      )
        k++;
      const ts = want[Math.min(k, want.length - 1)] ?? 0;
      mismatched.push({
        device: dev.d.id,
        at_ms: ts - t0,
        phase: phaseOf(ts),
        fired: got.length - want.length,
        drops_ms: dev.drops.map((t) => t - t0),
      });
    }
    for (const c of cluster.crashed()) log(`gateway ${c.gateway}: crashed (exit ${c.code}): ${c.output}`);
    if (mismatched.length) {
      const outputs = [
        ...cluster.gateways.map((g, i) => ({ who: `gateway ${i}`, output: g.process?.output() ?? '' })),
        ...cluster.killed().map((d) => ({ who: `gateway ${d.gateway} (killed)`, output: d.output })),
      ];
      // the devices out of step: every gateway's trace of them (RULES_TRACE), the killed ones' included
      const named = new RegExp(`rules: device (${mismatched.map((x) => x.device).join('|')}) `);
      for (const { who, output } of outputs)
        for (const line of output.split('\n'))
          if (named.test(line) || (/rule|task/i.test(line) && /fail|error|dropped|not evaluated|waits/i.test(line)))
            log(`${who}: ${line}`);
    }
    const figures: ChaosFigures = {
      devices: devices.length,
      gateways: nGateways,
      seconds,
      acknowledged_points: acknowledged,
      stored_points: storedPoints,
      acknowledged_lost: lost,
      duplicates_stored: duplicates,
      rule_firings_expected: expected,
      tasks_created: tasks,
      longest_live_gap_ms: longestGap || null,
      all_online_ms: allOnlineMs,
      devices_reconnected: devices.filter((d) => d.drops.some((t) => t >= killAt)).length,
      resent_messages: devices.reduce((n, d) => n + d.resent, 0),
      gateways_crashed: cluster.crashed().length,
      firings_mismatched: mismatched,
      devices_dropped_by_phase: {
        kill: devices.filter((d) => d.drops.some((t) => t >= killAt && t < natsAt)).length,
        nats: devices.filter((d) => d.drops.some((t) => t >= natsAt && t < postgresAt)).length,
        postgres: devices.filter((d) => d.drops.some((t) => t >= postgresAt)).length,
      },
      ok: false,
    };
    figures.ok =
      figures.acknowledged_points > 0 &&
      figures.acknowledged_lost === 0 &&
      figures.gateways_crashed === 0 &&
      figures.duplicates_stored === 0 &&
      figures.rule_firings_expected > 0 &&
      figures.rule_firings_expected === figures.tasks_created &&
      figures.all_online_ms !== null &&
      figures.longest_live_gap_ms !== null;
    // CHAOS_DUMP=<prefix>: a failed run leaves each gateway's whole output in <prefix>-<i>.log
    if (!figures.ok && process.env.CHAOS_DUMP)
      for (const [i, g] of cluster.gateways.entries()) {
        fs.writeFileSync(`${process.env.CHAOS_DUMP}-${i}.log`, g.process?.output() ?? '');
        for (const [k, d] of cluster
          .killed()
          .filter((d) => d.gateway === i)
          .entries())
          fs.writeFileSync(`${process.env.CHAOS_DUMP}-${i}-killed-${k}.log`, d.output);
      }
    return figures;
  } finally {
    for (const d of devices) d.stopped || (await d.stop(0));
    await db.end().catch(() => undefined);
    await cluster.stop();
  }
}
