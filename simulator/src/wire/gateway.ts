// Serial gateways (ZLAN, USR-IOT, Bivocom, Friendcom, Sentra gateways): one gw/<uid>/up message per poll cycle with a
// frame per Modbus node on the RS-485 bus, `{node, registers}`. Numbers sit in holding registers (4xxxx, two 16-bit
// registers per 32-bit float), booleans in coils (0xxxx); the register map tells which address holds which reading.
// Writes arrive on gw/<uid>/down as `{id, node, register | param, value}` and are answered on gw/<uid>/res.
import type { Reading } from '../profiles/types.js';
import { flatten, parseJsonObject, type CommandReply, type FlatValue, type Frame } from './types.js';

export const gatewayTopics = (uid: string) => ({ up: `gw/${uid}/up`, down: `gw/${uid}/down`, reply: `gw/${uid}/res` });

export interface RegisterEntry extends Omit<FlatValue, 'value'> {
  register: string;
}

/** Addresses in reading order: numbers from 40001 stepping by 2, booleans from coil 00001. Strings are not registers. */
export function registerMap(reading: Reading): RegisterEntry[] {
  let holding = 40001;
  let coil = 1;
  const out: RegisterEntry[] = [];
  for (const { value, ...path } of flatten(reading.data)) {
    if (typeof value === 'number') (out.push({ ...path, register: String(holding) }), (holding += 2));
    else if (typeof value === 'boolean') out.push({ ...path, register: String(coil++).padStart(5, '0') });
  }
  return out.slice(0, 256);
}

export function registersOf(reading: Reading): Record<string, number | boolean> {
  const values = flatten(reading.data).filter((v) => typeof v.value === 'number' || typeof v.value === 'boolean');
  const map = registerMap(reading);
  return Object.fromEntries(map.map((entry, i) => [entry.register, values[i]!.value as number | boolean]));
}

/** One poll cycle: a frame per node (at most 32, the adapter's bound), stamped with the cycle's time. */
export function gatewayUp(uid: string, nodes: { node: number; reading: Reading }[], ts?: number): Frame {
  const frames = nodes
    .slice(0, 32)
    .map((n) =>
      ts === undefined
        ? { node: n.node, registers: registersOf(n.reading) }
        : { node: n.node, ts, registers: registersOf(n.reading) },
    );
  return { topic: gatewayTopics(uid).up, payload: JSON.stringify(frames.length === 1 ? frames[0] : frames) };
}

export interface GatewayWrite {
  id: string | number;
  node: number;
  register?: string;
  param?: string;
  value: unknown;
}

export function parseGatewayWrite(payload: Buffer | string): GatewayWrite | null {
  const o = parseJsonObject(payload);
  if (!o || (typeof o.id !== 'string' && typeof o.id !== 'number') || typeof o.node !== 'number') return null;
  if (typeof o.register !== 'string' && typeof o.param !== 'string') return null;
  return {
    id: o.id,
    node: o.node,
    register: typeof o.register === 'string' ? o.register : undefined,
    param: typeof o.param === 'string' ? o.param : undefined,
    value: o.value,
  };
}

export function gatewayReply(uid: string, reply: CommandReply): Frame {
  return {
    topic: gatewayTopics(uid).reply,
    payload: JSON.stringify(
      reply.code === undefined ? { id: reply.id, ok: reply.ok } : { id: reply.id, ok: reply.ok, code: reply.code },
    ),
  };
}
