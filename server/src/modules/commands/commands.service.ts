// Device commands (docs/conventions.md "Commands"): a request on the bus subject `cmd.<app>.<device>` is answered by
// the gateway holding the device's connection, which publishes the command in the family's format, waits for the
// device's reply (correlated by id, one pending command per device) and answers success, -30 offline, -31 busy or
// -32 time-out. `sendCommand` is the one entry point: the configuration dialog's call and, later, the command cards.
import { randomUUID } from 'node:crypto';
import { COMMAND_REFUSED, Result, T, type CommandReply } from '@sentra/contracts';
import { BusNoRespondersError, BusTimeoutError, type Bus, type BusSubscription } from '../../platform/bus/types.js';
import { fail, invalid, notFound } from '../../platform/http/errors.js';
import type { Logger } from '../../platform/log.js';
import type { Broker, MqttIdentity } from '../../platform/mqtt/types.js';
import { belongsTo } from '../devices/devices.broker.js';
import type { DeviceService } from '../devices/devices.service.js';
import type { DeviceRow } from '../devices/devices.table.js';
import type { LoraApplications } from '../lora/network-server-auth.js';
import { parseSensorConfig } from '../telemetry/sensor-config.js';
import {
  encodeCommand,
  familyOf,
  matchReply,
  wireOf,
  type CommandBody,
  type DeviceContext,
  type DeviceIdentity,
  type DeviceResolver,
  type ReplyVerdict,
} from '../devices/families/index.js';

/** Default wait for a device's reply: inside the configuration call's 60 s, with room for the bus and the answer. */
export const DEFAULT_COMMAND_WAIT_MS = 55_000;
/** A requester may ask for a shorter wait, never a longer one. */
const MAX_COMMAND_WAIT_MS = 120_000;
/** extra time the requester gives the bus beyond the device wait */
const BUS_MARGIN_MS = 2000;

export interface CommandRequest extends CommandBody {
  appId: number;
  deviceId: number;
  /** how long to wait for the device's reply (default: the service's wait) */
  waitMs?: number;
}

/** What travels back on the bus. */
type CommandFailure = { ok: false; code: number; message: string };
type CommandAnswer = { ok: true; data: CommandReply } | CommandFailure;

interface Pending {
  id: string;
  row: DeviceRow;
  cmd: CommandBody;
  sentTs: number;
  /** a LoRa device's application level on the wire (its network server's application UUID, or the numeric id) */
  loraApplication?: string;
  finish(answer: CommandAnswer): void;
  replied(verdict: ReplyVerdict): void;
}

export interface CommandsDeps {
  bus: Bus;
  broker: Pick<Broker, 'publish' | 'connected' | 'on' | 'awaits' | 'unqueue'>;
  devices: Pick<DeviceService, 'rowOf'>;
  /** the telemetry resolver: which device a reply came from */
  resolver: DeviceResolver;
  log: Logger;
  now?: () => number;
  /** wait for a device's reply (tests shorten it) */
  waitMs?: number;
  /** the application level of a LoRa device's topics (ChirpStack v4: its network server's application UUID) */
  loraApplications?: Pick<LoraApplications, 'levelOf'>;
}

const OFFLINE: CommandFailure = { ok: false, code: Result.DEVICE_OFFLINE, message: T.deviceData.commandOffline };
const BUSY: CommandFailure = { ok: false, code: Result.DEVICE_BUSY, message: T.deviceData.commandBusy };
const TIMEOUT: CommandFailure = { ok: false, code: Result.DEVICE_TIMEOUT, message: T.deviceData.commandTimeout };

export function createCommands(deps: CommandsDeps) {
  const { bus, broker, devices, resolver, log } = deps;
  const now = deps.now ?? Date.now;
  const defaultWait = deps.waitMs ?? DEFAULT_COMMAND_WAIT_MS;
  /** device id → its one pending command */
  const pending = new Map<number, Pending>();
  let closed = false;

  /** the device can hear a command from this gateway now */
  function reachable(row: DeviceRow): boolean {
    if (row.disabled || !row.online) return false;
    const connected = broker.connected() as DeviceIdentity[];
    const family = familyOf(row.category);
    return family?.command.reachable ? family.command.reachable(row, connected) : connected.some(belongsTo(row));
  }

  async function deliver(req: CommandRequest): Promise<CommandAnswer | undefined> {
    let row: DeviceRow;
    try {
      row = await devices.rowOf(req.appId, req.deviceId);
    } catch {
      return { ok: false, code: Result.NOT_FOUND, message: T.common.notFound };
    }
    if (closed) return OFFLINE;
    const away = !reachable(row);
    // with several gateways (NATS), the one holding the device's connection answers
    if (away && bus.kind === 'nats' && row.online && !row.disabled) return undefined;
    if (away && row.disabled) return OFFLINE;
    if (pending.has(row.id)) return BUSY;
    const id = randomUUID();
    const cmd: CommandBody = { sensor: req.sensor, configtype: req.configtype, param: req.param, value: req.value };
    const loraApplication =
      wireOf(row) === 'lora' ? deps.loraApplications?.levelOf(row.appId, row.networkServerId) : undefined;
    // a device with its own decoder table gets its downlink's bytes from it (devices/families/lora/encoder.ts)
    const decoder = wireOf(row) === 'lora' ? parseSensorConfig(row.sensors).decoder : undefined;
    const out = encodeCommand(row, id, cmd, { application: loraApplication, decoder });
    // a device away with a persistent session (MQTT clean session false, MQTT 5 session expiry) that subscribed to its
    // commands gets this one when it returns, within the command's time-out (the broker queues it); else -30 at once
    if (away && (!out || !broker.awaits?.(out.topic))) return OFFLINE;
    if (!out) return { ok: false, code: Result.INVALID, message: T.common.invalidInput };
    const wait = Math.max(1, Math.min(req.waitMs ?? defaultWait, MAX_COMMAND_WAIT_MS));
    const sentTs = now();
    return new Promise<CommandAnswer>((resolve) => {
      const timer = setTimeout(() => {
        // a copy still queued for the away device is dropped: it would arrive after its answer was given
        if (away) broker.unqueue?.(out.topic, typeof out.payload === 'string' ? Buffer.from(out.payload) : out.payload);
        entry.finish(TIMEOUT);
      }, wait);
      const entry: Pending = {
        id,
        row,
        cmd,
        sentTs,
        loraApplication,
        finish(answer) {
          if (pending.get(row.id) !== entry) return;
          pending.delete(row.id);
          clearTimeout(timer);
          resolve(answer);
        },
        replied(verdict) {
          entry.finish(
            verdict.ok
              ? {
                  ok: true,
                  data: { id, device_id: row.id, ...cmd, sent_ts: sentTs, reply_ts: now(), reply: verdict.reply },
                }
              : { ok: false, code: COMMAND_REFUSED, message: T.deviceData.commandRefused },
          );
        },
      };
      pending.set(row.id, entry);
      broker.publish(out.topic, out.payload, { qos: 1 }).catch((err) => {
        log.warn(`command ${id} to device ${row.id} could not be published`, err);
        entry.finish(OFFLINE);
      });
    });
  }

  const responder: BusSubscription = bus.subscribe<CommandRequest>('cmd.*.*', (msg) => {
    if (!msg.reply) return undefined;
    const [, app, device] = msg.subject.split('.');
    // the subject names the device: a body naming another one is not trusted
    return deliver({ ...msg.data, appId: Number(app), deviceId: Number(device) });
  });

  broker.on('message', (identity: MqttIdentity, topic: string, payload: Buffer) => {
    if (pending.size === 0) return;
    const reply = (ctx: DeviceContext | null) => {
      const p = ctx && pending.get(ctx.deviceId);
      if (!p) return;
      const verdict = matchReply(p.row, p.id, p.cmd, topic, payload, p.loraApplication);
      if (verdict) p.replied(verdict);
    };
    // the device's row may have to be read first (not cached): the reply is matched when it comes
    const ctx = resolver.resolveDevice(identity, topic);
    if (ctx instanceof Promise) ctx.then(reply, (err) => log.warn("a reply's device could not be read", err));
    else reply(ctx);
  });

  /** Sends a command and answers the device's reply; throws the call's ApiError (-30, -31, -32, -33, 404). */
  async function sendCommand(req: CommandRequest): Promise<CommandReply> {
    const waitMs = Math.max(1, Math.min(req.waitMs ?? defaultWait, MAX_COMMAND_WAIT_MS));
    let answer: CommandAnswer;
    try {
      answer = await bus.request<CommandAnswer>(
        `cmd.${req.appId}.${req.deviceId}`,
        { sensor: req.sensor, configtype: req.configtype, param: req.param, value: req.value, waitMs },
        { timeoutMs: waitMs + BUS_MARGIN_MS },
      );
    } catch (err) {
      if (err instanceof BusTimeoutError) throw fail(TIMEOUT.code, T.deviceData.commandTimeout);
      if (err instanceof BusNoRespondersError) throw fail(OFFLINE.code, T.deviceData.commandOffline);
      throw err;
    }
    if (answer.ok) return answer.data;
    if (answer.code === Result.NOT_FOUND) throw notFound();
    if (answer.code === Result.INVALID) throw invalid(answer.message);
    throw fail(answer.code, answer.message);
  }

  return {
    sendCommand,
    /** commands waiting for a reply on this gateway */
    pendingCount: () => pending.size,
    close() {
      closed = true;
      responder.unsubscribe();
      for (const p of [...pending.values()]) p.finish(OFFLINE);
    },
  };
}

export type Commands = ReturnType<typeof createCommands>;
