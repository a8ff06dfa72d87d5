// A device sends the same data message again and again with new numbers in it: `{"env":{"data":{"t":21.5,"h":40}}}`.
// Once a message has been adapted the full way (JSON.parse and the walk), its bytes become the device's template. The
// next message whose bytes are the same everywhere except in its numbers is adapted by reading those numbers straight
// from the bytes; its points and time are the template's, with the new numbers. Anything else (a string or key that
// changed, whitespace, a number the fast reader does not take) goes the full way, and that message becomes the template.
//
// Why: at 50,000 messages/s, parsing and walking the payload was an eighth of the gateway's event loop
// (docs/decisions/ingest.md, "A device's data messages are read against a template").
//
// The fast way gives what the full way gives, by construction:
// - The bytes outside the numbers are those of a message that parsed, so the structure and every key are the same.
// - The template keeps the number literals that become points or the `_ts` time, and nothing else. When some number
//   is elsewhere (in an array, an object-valued point, a duplicate key), the count of slots and points differs and no
//   template is made.
// - Object keys iterate in text order only when none is an array index. So a message with a key made of digits, a
//   duplicate key, or an escape in a key gets no template.
// - A number is read only when the literal has at most 15 digits and no exponent. Its digits then form an integer
//   below 2^53, and one division by an exact power of ten is correctly rounded, as JSON.parse's result is.
import { parseDeviceTime, type AdapterOutput, type DeviceContext, type RawPoint } from '../wire.js';

/** a template is made of messages this long at most, with this many numbers at most (a device's context keeps its
 * template: 50,000 cached contexts hold at most 50 MB of them, however their devices write) */
export const MAX_TEMPLATE_BYTES = 1024;
export const MAX_TEMPLATE_NUMBERS = 256;

/**
 * What devices sending the same message share (one object for the whole fleet: it stays in the processor's cache):
 * the message's bytes without its number literals, where each literal goes, and the points they become.
 */
interface Shape {
  /** the bytes outside the number literals */
  skeleton: Uint8Array;
  /** where in `skeleton` each number literal was, in text order */
  cuts: Int32Array;
  /** for each literal, the point whose value it is, or -1 for the `_ts` time */
  targets: Int32Array;
  points: readonly RawPoint[];
  /** the time the message states when it is not one of its numbers (an ISO text, or none) */
  ts?: number;
}

/** A device's template, kept on its context (the resolver's cached context is one object until its row is read again). */
export interface DataTemplate {
  /** undefined: its last message could not be one, so no message fits */
  shape?: Shape;
  /** messages read with it */
  hits: number;
  /** templates of this device in a row that no message fitted: after MAX_UNFIT the device gets none (until its
   * context is read again), so one whose messages never repeat does not pay for a template each time */
  unfit: number;
}

export const MAX_UNFIT = 8;

/** shapes by skeleton and datatypes; when this many are known, the next one starts the collection afresh */
const shapes = new Map<string, Shape>();
export const MAX_SHAPES = 1024;

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
const MAX_DIGITS = 15;
const values = new Float64Array(MAX_TEMPLATE_NUMBERS);
/** the value of the literal readNumber read last */
let read = 0;

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** A JSON number literal at `i` that the fast reader takes: its end (its value in `read`), else -1. */
export function readNumber(p: Uint8Array, i: number): number {
  const n = p.length;
  const negative = p[i] === 0x2d;
  if (negative) i++;
  if (i >= n) return -1;
  let m = 0;
  let digits = 0;
  let fraction = 0;
  let c = p[i]!;
  if (c === 0x30) i++;
  else if (c >= 0x31 && c <= 0x39) {
    while (i < n && isDigit((c = p[i]!))) {
      m = m * 10 + (c - 0x30);
      digits++;
      i++;
    }
  } else return -1;
  if (i < n && p[i] === 0x2e) {
    const at = ++i;
    while (i < n && isDigit((c = p[i]!))) {
      m = m * 10 + (c - 0x30);
      digits++;
      fraction++;
      i++;
    }
    if (i === at) return -1;
  }
  if (digits > MAX_DIGITS || (i < n && (p[i] === 0x65 || p[i] === 0x45))) return -1;
  read = fraction === 0 ? m : m / POW10[fraction]!;
  if (negative) read = -read;
  return i;
}

/** `p` equals `t` over `len` bytes from `i` and `j` */
function same(p: Uint8Array, i: number, t: Uint8Array, j: number, len: number): boolean {
  for (let x = 0; x < len; x++) if (p[i + x] !== t[j + x]) return false;
  return true;
}

/** The device's next data message the fast way, or undefined when it does not fit its template. */
export function fromTemplate(ctx: DeviceContext, payload: Uint8Array): AdapterOutput | undefined {
  const t = ctx.dataTemplate;
  const shape = t?.shape;
  if (shape === undefined) return undefined;
  const { skeleton, cuts } = shape;
  let i = 0;
  let j = 0;
  for (let k = 0; k < cuts.length; k++) {
    const cut = cuts[k]!;
    const len = cut - j;
    if (i + len > payload.length || !same(payload, i, skeleton, j, len)) return undefined;
    i = readNumber(payload, i + len);
    if (i < 0) return undefined;
    values[k] = read;
    j = cut;
  }
  const rest = skeleton.length - j;
  if (payload.length - i !== rest || !same(payload, i, skeleton, j, rest)) return undefined;

  const points: RawPoint[] = [];
  for (const p of shape.points) {
    points.push({
      sensor: p.sensor,
      configtype: p.configtype,
      param: p.param,
      subparam: p.subparam,
      datatype: p.datatype,
      value: p.value,
    });
  }
  let ts = shape.ts;
  for (let k = 0; k < shape.targets.length; k++) {
    const target = shape.targets[k]!;
    if (target >= 0) points[target]!.value = values[k];
    // a time out of range: the full way refuses the message
    else if ((ts = parseDeviceTime(values[k])) === undefined) return undefined;
  }
  t!.hits++;
  return { points, states: [], ts };
}

/**
 * The number literals of a JSON text that parsed into an object (start, end pairs) and which one is the top-level
 * `_ts`, or null when its keys would not iterate in text order (a key of digits, a duplicate, an escape).
 */
export function numberSlots(p: Uint8Array): { slots: number[]; ts: number } | null {
  const slots: number[] = [];
  let ts = -1;
  /** each open object's keys so far (null: an array) */
  const open: Array<Set<string> | null> = [];
  let lastKey = '';
  const n = p.length;
  let i = 0;
  while (i < n) {
    const c = p[i]!;
    if (c === 0x22) {
      const start = ++i;
      let escaped = false;
      while (i < n && p[i] !== 0x22) {
        if (p[i] === 0x5c) {
          escaped = true;
          i++;
        }
        i++;
      }
      const end = i++;
      let k = i;
      while (k < n && (p[k] === 0x20 || p[k] === 0x09 || p[k] === 0x0a || p[k] === 0x0d)) k++;
      if (p[k] !== 0x3a) continue; // a string value
      if (escaped) return null;
      const key = Buffer.from(p.buffer, p.byteOffset + start, end - start).toString('utf8');
      const keys = open[open.length - 1];
      if (/^[0-9]+$/.test(key) || !keys || keys.has(key)) return null;
      keys.add(key);
      lastKey = key;
    } else if (c === 0x7b) {
      open.push(new Set());
      i++;
    } else if (c === 0x5b) {
      open.push(null);
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
      i++;
    } else if (c === 0x2d || isDigit(c)) {
      const start = i++;
      while (
        i < n &&
        (isDigit(p[i]!) || p[i] === 0x2e || p[i] === 0x65 || p[i] === 0x45 || p[i] === 0x2b || p[i] === 0x2d)
      )
        i++;
      if (slots.length >= MAX_TEMPLATE_NUMBERS * 2) return null;
      if (open.length === 1 && lastKey === '_ts') ts = slots.length / 2;
      slots.push(start, i);
    } else i++; // whitespace, ',', ':', true, false, null
  }
  return { slots, ts };
}

/** Makes `payload`, just adapted the full way into `out`, the device's template when its numbers map onto `out`. */
export function learnTemplate(ctx: DeviceContext, payload: Uint8Array, out: AdapterOutput): void {
  const before = ctx.dataTemplate;
  const unfit = before === undefined ? 0 : before.hits > 0 ? 0 : before.unfit + 1;
  if (unfit >= MAX_UNFIT) return; // given up on
  ctx.dataTemplate = { shape: shapeOf(payload, out), hits: 0, unfit };
}

function shapeOf(payload: Uint8Array, out: AdapterOutput): Shape | undefined {
  if (payload.length > MAX_TEMPLATE_BYTES) return undefined;
  const found = numberSlots(payload);
  if (!found) return undefined;
  const numbered: number[] = [];
  out.points.forEach((p, k) => typeof p.value === 'number' && numbered.push(k));
  const literals = found.slots.length / 2;
  if (numbered.length + (found.ts >= 0 ? 1 : 0) !== literals) return undefined;

  const bytes = Buffer.from(payload.buffer, payload.byteOffset, payload.length);
  const parts: Buffer[] = [];
  const cuts = new Int32Array(literals);
  let at = 0;
  let length = 0;
  for (let k = 0; k < literals; k++) {
    parts.push(bytes.subarray(at, found.slots[2 * k]));
    length += found.slots[2 * k]! - at;
    cuts[k] = length;
    at = found.slots[2 * k + 1]!;
  }
  parts.push(bytes.subarray(at));
  const skeleton = Buffer.concat(parts);
  const ts = found.ts >= 0 ? undefined : out.ts;
  const key = `${skeleton.toString('latin1')}\0${cuts.join()}\0${out.points.map((p) => p.datatype).join()}\0${ts}`;
  let shape = shapes.get(key);
  if (shape === undefined) {
    const targets = new Int32Array(literals);
    for (let k = 0, next = 0; k < literals; k++) targets[k] = k === found.ts ? -1 : numbered[next++]!;
    if (shapes.size >= MAX_SHAPES) shapes.clear();
    shapes.set(key, (shape = { skeleton, cuts, targets, points: out.points.map((p) => ({ ...p })), ts }));
  }
  return shape;
}
