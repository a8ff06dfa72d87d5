// A LoRa downlink's bytes from the device's own declarative decoder table, read backwards: the field a command names
// (on the command's fPort, or '*') is written into a frame as long as the port's table, the other bytes zero. Used
// when the device has such a table, so that the network server needs no codec of its own (ChirpStack without a device
// profile codec cannot turn `object` into bytes).
import type { LoraDecoder, LoraField } from './decoder.js';

const SIZE: Record<LoraField['type'], number> = { u8: 1, i8: 1, u16: 2, i16: 2, u32: 4, i32: 4, f32: 4, bit: 1 };
const RANGE: Partial<Record<LoraField['type'], [number, number]>> = {
  u8: [0, 0xff],
  i8: [-0x80, 0x7f],
  u16: [0, 0xffff],
  i16: [-0x8000, 0x7fff],
  u32: [0, 0xffffffff],
  i32: [-0x80000000, 0x7fffffff],
};

/** The frame carrying `value` in the field `name`, or null when the table has no such field or cannot hold the value. */
export function encodeLora(decoder: LoraDecoder, fPort: number, name: string, value: unknown): Buffer | null {
  const fields = decoder.ports[String(fPort)] ?? decoder.ports['*'];
  const field = fields?.find((f) => f.name === name);
  if (!fields || !field) return null;
  const n =
    typeof value === 'boolean'
      ? Number(value)
      : typeof value === 'number'
        ? value
        : typeof value === 'string' && value.trim() !== ''
          ? Number(value)
          : NaN;
  if (!Number.isFinite(n)) return null;
  const bytes = Buffer.alloc(Math.max(...fields.map((f) => f.offset + SIZE[f.type])));
  if (field.type === 'bit') {
    if (n !== 0 && n !== 1) return null;
    if (n === 1) bytes[field.offset] = 1 << (field.bit ?? 0);
    return bytes;
  }
  const raw = (n - (field.add ?? 0)) / (field.scale ?? 1);
  if (field.type === 'f32') {
    if (field.littleEndian) bytes.writeFloatLE(raw, field.offset);
    else bytes.writeFloatBE(raw, field.offset);
    return bytes;
  }
  const int = Math.round(raw);
  const [min, max] = RANGE[field.type]!;
  if (!Number.isFinite(int) || int < min || int > max) return null;
  const le = field.littleEndian === true;
  switch (field.type) {
    case 'u8':
      bytes.writeUInt8(int, field.offset);
      break;
    case 'i8':
      bytes.writeInt8(int, field.offset);
      break;
    case 'u16':
      le ? bytes.writeUInt16LE(int, field.offset) : bytes.writeUInt16BE(int, field.offset);
      break;
    case 'i16':
      le ? bytes.writeInt16LE(int, field.offset) : bytes.writeInt16BE(int, field.offset);
      break;
    case 'u32':
      le ? bytes.writeUInt32LE(int, field.offset) : bytes.writeUInt32BE(int, field.offset);
      break;
    case 'i32':
      le ? bytes.writeInt32LE(int, field.offset) : bytes.writeInt32BE(int, field.offset);
      break;
  }
  return bytes;
}
