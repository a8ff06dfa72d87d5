// The simulated devices on the wire: one MQTT connection per device (a LoRa network server and a serial gateway each
// speak for their nodes), publishing their profile's readings on schedule, answering commands (ack, busy, or silence
// when told to fault), dropping off abruptly (LWT) and coming back.
// Over 500 lines: one connection base and its device kinds (generic, Tasmota, serial gateway, LoRa node, network
// server), each a short class over the base's protected wire helpers.
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { createRng, type Rng } from '../rng.js';
import { PROFILES, Simulation, type ProfileEvent, type Reading } from '../profiles/index.js';
import {
  gatewayReply,
  gatewayTopics,
  gatewayUp,
  genericFrames,
  genericReply,
  genericTopics,
  loraDownlinkEvents,
  loraDownlinkFilter,
  loraStatus,
  loraUplink,
  malformed,
  parseGatewayWrite,
  parseGenericCommand,
  parseLoraDownlink,
  pickMalformation,
  registerMap,
  tasmotaAnswer,
  tasmotaLwt,
  tasmotaSensor,
  tasmotaState,
  tasmotaTopics,
  type Frame,
  type LoraNode,
} from '../wire/index.js';
import type { DevicePlan } from './plan.js';
import type { FleetStats } from './stats.js';

export type FaultMode = 'silent' | 'offline' | 'malformed' | 'none';

export interface DeviceEnv {
  /** mqtt://host:port or ws://host:port/mqtt */
  mqttUrl: string;
  seed: string | number;
  startMs: number;
  intervalMs: number;
  /** simulated time one message advances a device by: the interval times the run's speed */
  stepMs: number;
  /** probability per message of a malformed frame; offline flapping at a tenth of it */
  faults: number;
  stats: FleetStats;
  /** waits for a connection slot (the ramp) */
  ramp(): Promise<void>;
  onEvent?(plan: DevicePlan, e: ProfileEvent): void;
}

/** Something the scheduler calls every `intervalMs`. */
export interface Emitter {
  nextAt: number;
  emit(now: number): void;
  /** simulated time of the device's reading */
  readonly simTime: number;
  /**
   * History (the demo's past week): advances the simulation by `stepMs` and sends that reading stamped with its
   * simulated time (`_ts`, LoRa `time`, a gateway's `ts`, Tasmota's `Time` with its zone), resolved once the gateway
   * has it (PUBACK: a replay goes at the writer's pace).
   */
  replay(stepMs: number): Promise<void>;
  /**
   * Starts the device's simulation over at `t` (before a replay from there: the device's newest stored reading, or
   * the start of the history). Its counters read the same at any instant whenever it starts (profiles/clock.ts).
   */
  restartAt(t: number): void;
}

const COMMAND_DELAY_MS: [number, number] = [40, 250];

export abstract class Connection {
  client?: MqttClient;
  connected = false;
  fault: FaultMode = 'none';
  protected readonly rng: Rng;
  private closing = false;
  private flapTimer?: NodeJS.Timeout;
  /** jittered, so a gateway restart does not bring every device back in the same second */
  private readonly reconnectPeriod: number;

  constructor(
    readonly key: string,
    protected readonly env: DeviceEnv,
  ) {
    this.rng = createRng(`${env.seed}/conn/${key}`);
    this.reconnectPeriod = 2000 + Math.floor(this.rng.range(0, 3000));
  }

  /** the next reconnect happens at once (the broker is about to drop us on purpose); later ones are jittered again */
  rejoinQuickly(): void {
    if (this.client) this.client.options.reconnectPeriod = 100;
  }

  /**
   * Connects once; resolves on the first CONNACK, rejects on refusal or after `timeoutMs`. Reconnects by itself later.
   * `tryOnly`: a refusal of this first attempt is the caller's to handle, not an error of the run.
   */
  async open(opts: IClientOptions, { timeoutMs = 15_000, tryOnly = false } = {}): Promise<void> {
    await this.env.ramp();
    const { stats } = this.env;
    const client = mqtt.connect(this.env.mqttUrl, {
      clean: true,
      keepalive: 60,
      reconnectPeriod: this.reconnectPeriod,
      connectTimeout: 10_000,
      resubscribe: false,
      queueQoSZero: false,
      protocolVersion: 4,
      ...opts,
    });
    this.client = client;
    stats.connections++;
    let trying = tryOnly;
    client.on('connect', () => {
      trying = false;
      client.options.reconnectPeriod = this.reconnectPeriod;
      if (!this.connected) stats.connected++;
      this.connected = true;
      this.onConnect();
    });
    client.on('close', () => {
      if (this.connected) stats.connected--;
      this.connected = false;
    });
    client.on('error', (err) => {
      if (trying) return;
      stats.errors++;
      stats.lastError = `${this.key}: ${err.message}`;
    });
    client.on('message', (topic, payload) => {
      try {
        this.onMessage(topic, payload);
      } catch (err) {
        stats.errors++;
        stats.lastError = `${this.key}: ${(err as Error).message}`;
      }
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.key}: no CONNACK within ${timeoutMs} ms`)), timeoutMs);
      client.once('connect', () => (clearTimeout(timer), resolve()));
      client.once('error', (err) => (clearTimeout(timer), reject(err)));
    });
  }

  protected onConnect(): void {}
  protected onMessage(_topic: string, _payload: Buffer): void {}

  publish(frame: Frame): void {
    const c = this.client;
    if (!c || !this.connected || this.fault === 'offline') return;
    let f = frame;
    if (this.fault === 'malformed' || (this.env.faults > 0 && this.rng.chance(this.env.faults))) {
      f = malformed(frame, pickMalformation(this.rng));
      this.env.stats.malformed++;
    }
    this.env.stats.messages++;
    this.env.stats.bytes += f.payload.length;
    c.publish(f.topic, f.payload, { qos: f.qos ?? 0, retain: f.retain ?? false });
  }

  /**
   * A frame of history: no faults, QoS 1, resolved on its PUBACK (or dropped when not connected). QoS 1 because the
   * gateway sheds QoS 0 past its queue bound, which a replay reaches (seen: a third of the week lost); the PUBACK
   * comes once the message is queued and the broker stops reading while the writer is behind, so the replay waits.
   */
  sendPast(frame: Frame): Promise<void> {
    const c = this.client;
    if (!c || !this.connected) return Promise.resolve();
    this.env.stats.history++;
    this.env.stats.bytes += frame.payload.length;
    // a connection lost mid-write never calls back: its close ends the wait (the replay then skips ahead)
    return new Promise((resolve) => {
      const done = () => (c.off('close', done), resolve());
      c.once('close', done);
      c.publish(frame.topic, frame.payload, { qos: 1 }, done);
    });
  }

  /** Random offline spells when faults are on: an abrupt drop (the broker sends the will), back after 10-60 s. */
  protected maybeFlap(): void {
    if (this.env.faults > 0 && this.connected && this.rng.chance(this.env.faults / 10))
      this.goOffline(this.rng.range(10_000, 60_000));
  }

  /** Drops the connection without DISCONNECT, as a power cut does, and reconnects after `ms`. */
  goOffline(ms: number): void {
    const c = this.client;
    if (!c || this.closing) return;
    this.env.stats.flaps++;
    this.fault = 'offline';
    c.end(true);
    this.flapTimer = setTimeout(() => {
      if (this.closing) return;
      this.fault = 'none';
      c.reconnect();
    }, ms);
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.flapTimer);
    const c = this.client;
    if (!c) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => (c.end(true), resolve()), 3000);
      c.end(false, {}, () => (clearTimeout(timer), resolve()));
    });
  }

  /** answers after a short processing time; silent when told to fault */
  protected reply(run: () => void): void {
    if (this.fault === 'silent') {
      this.env.stats.commands.silent++;
      return;
    }
    setTimeout(run, this.rng.range(...COMMAND_DELAY_MS));
  }
}

function count(env: DeviceEnv, plan: DevicePlan, events: ProfileEvent[]) {
  for (const e of events) {
    env.stats.events[e.kind] = (env.stats.events[e.kind] ?? 0) + 1;
    env.onEvent?.(plan, e);
  }
}

/** MQTT devices and Sentra end devices: d/<id>/data, d/<id>/state, d/<id>/cmd → d/<id>/cmd/res. */
export class GenericDevice extends Connection implements Emitter {
  nextAt = 0;
  deviceId?: number;
  sim: Simulation;
  private busyUntil = 0;
  private sent = 0;

  constructor(
    readonly plan: DevicePlan,
    env: DeviceEnv,
  ) {
    super(plan.serial, env);
    this.sim = new Simulation(PROFILES[plan.profile], env.seed, plan.index, env.startMs);
  }

  restartAt(t: number): void {
    this.sim = new Simulation(PROFILES[this.plan.profile], this.env.seed, this.plan.index, t);
  }

  protected override onConnect(): void {
    if (this.deviceId !== undefined) this.client!.subscribe(genericTopics(this.deviceId).command, { qos: 1 });
  }

  /** once registered: the device's own topics are known */
  attach(deviceId: number): void {
    this.deviceId = deviceId;
    if (this.connected) this.onConnect();
  }

  emit(): void {
    if (this.deviceId === undefined) return;
    count(this.env, this.plan, this.sim.advance(this.env.stepMs));
    this.publishReading(this.sent++ % 10 === 0);
    this.maybeFlap();
  }

  private publishReading(withStates: boolean) {
    for (const f of genericFrames(this.deviceId!, this.sim.reading(), { withStates })) this.publish(f);
  }

  get simTime(): number {
    return this.sim.t;
  }

  async replay(stepMs: number): Promise<void> {
    if (this.deviceId === undefined) return;
    this.sim.advance(stepMs);
    for (const f of genericFrames(this.deviceId, this.sim.reading(), { ts: this.sim.t })) await this.sendPast(f);
  }

  protected override onMessage(topic: string, payload: Buffer): void {
    if (this.deviceId === undefined || topic !== genericTopics(this.deviceId).command) return;
    const cmd = parseGenericCommand(payload);
    if (!cmd) return;
    this.reply(() => {
      const now = Date.now();
      let outcome: { ok: boolean; code?: number };
      if (now < this.busyUntil) outcome = { ok: false, code: -31 };
      else {
        outcome = this.sim.command(cmd);
        this.busyUntil = now + 500;
      }
      this.env.stats.commands[outcome.ok ? 'ok' : 'refused']++;
      this.publish(genericReply(this.deviceId!, { id: cmd.id, ...outcome }));
      if (outcome.ok) this.publishReading(true);
    });
  }
}

/** A Tasmota plug: LWT, tele SENSOR and STATE each TelePeriod, cmnd/<topic>/# answered on stat/<topic>/... */
export class TasmotaDevice extends Connection implements Emitter {
  nextAt = 0;
  topic?: string;
  sim: Simulation;
  private power: 'ON' | 'OFF' = 'OFF';
  private telePeriod = 300;
  private readonly bornAt = Date.now();

  constructor(
    readonly plan: DevicePlan,
    env: DeviceEnv,
  ) {
    super(plan.serial, env);
    this.sim = new Simulation(PROFILES[plan.profile], env.seed, plan.index, env.startMs);
    this.telePeriod = Math.max(10, Math.round(env.intervalMs / 1000));
  }

  restartAt(t: number): void {
    this.sim = new Simulation(PROFILES[this.plan.profile], this.env.seed, this.plan.index, t);
  }

  /** its past: SENSOR readings stamped with their time and zone (SetOption52), as a plug that kept them would send */
  async replay(stepMs: number): Promise<void> {
    const t = this.topic;
    if (!t) return;
    this.sim.advance(stepMs);
    await this.sendPast(tasmotaSensor(t, this.sim.reading(), this.sim.t));
  }

  options(topic: string, username: string, password: string): IClientOptions {
    this.topic = topic;
    const lwt = tasmotaLwt(topic, false);
    return {
      clientId: `DVES_${this.plan.serial.slice(-6)}${this.plan.index.toString(16).toUpperCase()}`,
      username,
      password,
      will: { topic: lwt.topic, payload: Buffer.from(lwt.payload), qos: 1, retain: true },
    };
  }

  protected override onConnect(): void {
    const t = this.topic!;
    this.publish({ ...tasmotaLwt(t, true), qos: 1 });
    this.client!.subscribe(tasmotaTopics(t).commands, { qos: 0 });
  }

  get simTime(): number {
    return this.sim.t;
  }

  private powerOf(reading: Reading): 'ON' | 'OFF' {
    const p = reading.states?.POWER;
    return p === 'ON' || p === 'OFF' ? p : this.power;
  }

  emit(now: number): void {
    const t = this.topic;
    if (!t) return;
    count(this.env, this.plan, this.sim.advance(this.env.stepMs));
    const reading = this.sim.reading();
    const power = this.powerOf(reading);
    if (power !== this.power) {
      // a switch by the plug itself (the machine's cycle ended): Tasmota announces it as it does for a button press
      this.power = power;
      this.publish({ topic: tasmotaTopics(t).result, payload: JSON.stringify({ POWER: power }) });
      this.publish({ topic: tasmotaTopics(t).power, payload: power });
    }
    // the plug's clock is the wall clock (NTP), whatever the simulation's speed
    this.publish(
      tasmotaState(t, {
        t: now,
        power: this.power,
        uptimeSec: Math.floor((now - this.bornAt) / 1000),
        rssi: 60 + (this.plan.index % 35),
      }),
    );
    this.publish(tasmotaSensor(t, reading, now));
    this.maybeFlap();
  }

  protected override onMessage(topic: string, payload: Buffer): void {
    const t = this.topic!;
    const prefix = `cmnd/${t}/`;
    if (!topic.startsWith(prefix)) return;
    const command = topic.slice(prefix.length);
    this.reply(() => {
      const answer = tasmotaAnswer(t, command, payload.toString(), this.power, this.telePeriod);
      if (answer.power) {
        // a laundry plug starts or stops its machine's cycle; any other plug's relay just switches (an environment
        // plug's profile has commands of its own, not POWER)
        const outcome =
          this.plan.profile === 'plug'
            ? this.sim.command({
                sensor: 'POWER',
                configtype: 'data',
                param: answer.power === 'ON' ? 'start' : 'stop',
                value: 'c1',
              })
            : { ok: true };
        if (!outcome.ok) {
          // the machine did not follow: the plug still answers, with the POWER it keeps (as a query does)
          this.env.stats.commands.refused++;
          for (const f of tasmotaAnswer(t, command, '', this.power, this.telePeriod).frames) this.publish(f);
          return;
        }
        this.power = answer.power;
      }
      if (answer.telePeriod) this.telePeriod = answer.telePeriod;
      this.env.stats.commands.ok++;
      for (const f of answer.frames) this.publish(f);
    });
  }
}

/** A serial gateway: its Modbus nodes in one gw/<uid>/up per poll cycle; writes on gw/<uid>/down answered on gw/<uid>/res. */
export class GatewayDevice extends Connection implements Emitter {
  nextAt = 0;
  registered = false;
  /** the secret shown at its activation (or regenerated): a registered gateway signs in with it, never its UID alone */
  secret?: string;
  nodes: Simulation[];

  constructor(
    readonly plan: DevicePlan,
    env: DeviceEnv,
  ) {
    super(plan.uid!, env);
    this.nodes = this.simulations(env.startMs);
  }

  private simulations(startMs: number): Simulation[] {
    return Array.from(
      { length: this.plan.nodes ?? 1 },
      (_, i) => new Simulation(PROFILES[this.plan.profile], this.env.seed, this.plan.index * 32 + i, startMs),
    );
  }

  restartAt(t: number): void {
    this.nodes = this.simulations(t);
  }

  options(): IClientOptions {
    return { clientId: this.plan.uid!, username: this.plan.uid!, ...(this.secret ? { password: this.secret } : {}) };
  }

  /** From now on it signs in with this secret (the connection the broker dropped at the add comes back with it). */
  useSecret(secret: string): void {
    this.secret = secret;
    if (this.client) this.client.options.password = secret;
  }

  protected override onConnect(): void {
    if (this.registered) this.client!.subscribe(gatewayTopics(this.plan.uid!).down, { qos: 1 });
  }

  /** the first poll cycle, heard by the activation screen's UID check */
  announce(): void {
    this.publish(this.frame());
  }

  private frame(): Frame {
    return gatewayUp(
      this.plan.uid!,
      this.nodes.map((sim, i) => ({ node: i + 1, reading: sim.reading() })),
    );
  }

  get simTime(): number {
    return this.nodes[0]!.t;
  }

  async replay(stepMs: number): Promise<void> {
    if (!this.registered) return;
    for (const sim of this.nodes) sim.advance(stepMs);
    await this.sendPast(
      gatewayUp(
        this.plan.uid!,
        this.nodes.map((sim, i) => ({ node: i + 1, reading: sim.reading() })),
        this.simTime,
      ),
    );
  }

  emit(): void {
    if (!this.registered) return;
    for (const sim of this.nodes) count(this.env, this.plan, sim.advance(this.env.stepMs));
    this.publish(this.frame());
    this.maybeFlap();
  }

  protected override onMessage(topic: string, payload: Buffer): void {
    const uid = this.plan.uid!;
    if (topic !== gatewayTopics(uid).down) return;
    const w = parseGatewayWrite(payload);
    if (!w) return;
    this.reply(() => {
      const sim = this.nodes[w.node - 1];
      const entry = sim && w.register ? registerMap(sim.reading()).find((e) => e.register === w.register) : undefined;
      const outcome = !sim
        ? { ok: false, code: -10 }
        : sim.command({
            sensor: entry?.sensor ?? '',
            configtype: entry?.configtype ?? 'data',
            param: entry?.param ?? w.param ?? '',
            value: w.value,
          });
      this.env.stats.commands[outcome.ok ? 'ok' : 'refused']++;
      this.publish(gatewayReply(uid, { id: w.id, ...outcome }));
    });
  }
}

/** One LoRa node behind the network server. */
export class LoraNodeDevice implements Emitter {
  nextAt = 0;
  registered = false;
  fCnt = 0;
  fCntDown = 0;
  sim: Simulation;

  constructor(
    readonly plan: DevicePlan,
    readonly info: LoraNode,
    private readonly ns: NetworkServer,
    private readonly env: DeviceEnv,
  ) {
    this.sim = new Simulation(PROFILES[plan.profile], env.seed, plan.index, env.startMs);
  }

  restartAt(t: number): void {
    this.sim = new Simulation(PROFILES[this.plan.profile], this.env.seed, this.plan.index, t);
  }

  get simTime(): number {
    return this.sim.t;
  }

  async replay(stepMs: number): Promise<void> {
    if (!this.registered) return;
    this.sim.advance(stepMs);
    const fCnt = this.fCnt++;
    await this.ns.sendPast(
      loraUplink(this.info, {
        t: this.sim.t,
        fCnt,
        reading: this.sim.reading(),
        rssi: -80 - (this.plan.index % 40),
        snr: 5,
      }),
    );
  }

  emit(now: number): void {
    if (!this.registered) return;
    count(this.env, this.plan, this.sim.advance(this.env.stepMs));
    const fCnt = this.fCnt++;
    // radio: further nodes are weaker; the air adds its noise
    const rssi = Math.round(-70 - (this.plan.index % 40) - Math.abs(Math.sin(fCnt)) * 8);
    // the network server stamps an uplink with the time it heard it (the wall clock)
    this.ns.publish(
      loraUplink(this.info, {
        t: now,
        fCnt,
        reading: this.sim.reading(),
        rssi,
        snr: Math.round((12 + rssi / 10) * 10) / 10,
      }),
    );
    if (fCnt % 20 === 0) {
      const battery = this.sim.reading().data.env?.data?.battery;
      this.ns.publish(
        loraStatus(this.info, {
          t: now,
          batteryLevel: typeof battery === 'number' ? battery : 90,
          margin: 8 + (this.plan.index % 10),
        }),
      );
    }
  }
}

/** The ChirpStack-style network server: one connection with the application's credentials pair, every node's traffic. */
export class NetworkServer extends Connection {
  readonly nodes = new Map<string, LoraNodeDevice>();

  constructor(
    readonly appId: number,
    env: DeviceEnv,
  ) {
    super(`network-server-${appId}`, env);
  }

  protected override onConnect(): void {
    this.client!.subscribe(loraDownlinkFilter(this.appId), { qos: 1 });
  }

  protected override onMessage(topic: string, payload: Buffer): void {
    const d = parseLoraDownlink(topic, payload);
    const node = d && this.nodes.get(d.devEui.toUpperCase());
    if (!d || !node) return;
    this.env.stats.downlinks++;
    // class A: the downlink goes out in the receive window after the node's next uplink; a short delay stands for it
    this.reply(() => {
      const outcome = d.command ? node.sim.command(d.command) : { ok: true };
      this.env.stats.commands[outcome.ok ? 'ok' : 'refused']++;
      for (const f of loraDownlinkEvents(node.info, d, Date.now(), node.fCntDown++, outcome.ok)) this.publish(f);
    });
  }
}
