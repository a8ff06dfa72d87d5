// A declarative decoder for raw LoRa payload bytes: a table of fields (offset, type, scale) per fPort, configured on
// the device. Declarative on purpose: no tenant-supplied code ever runs inside the gateway.
import { z } from 'zod';

const fieldType = z.enum(['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'f32', 'bit']);

export const loraFieldSchema = z.object({
  /** becomes the point's param */
  name: z.string().min(1).max(64),
  offset: z.number().int().min(0).max(242),
  type: fieldType,
  littleEndian: z.boolean().optional(),
  /** value = raw * scale + add (numbers only) */
  scale: z.number().optional(),
  add: z.number().optional(),
  /** for `bit`: which bit of the byte at `offset` (0 = least significant) */
  bit: z.number().int().min(0).max(7).optional(),
});

export const loraDecoderSchema = z.object({
  /** fields per fPort ('*' for every port) */
  ports: z.record(z.string().regex(/^(\*|\d{1,3})$/), z.array(loraFieldSchema).min(1).max(64)),
});

export type LoraField = z.infer<typeof loraFieldSchema>;
export type LoraDecoder = z.infer<typeof loraDecoderSchema>;

const SIZE: Record<LoraField['type'], number> = { u8: 1, i8: 1, u16: 2, i16: 2, u32: 4, i32: 4, f32: 4, bit: 1 };

/** Decoded values by field name, or an error text when the bytes are shorter than the table says. */
export function decodeLora(
  decoder: LoraDecoder,
  fPort: number | undefined,
  bytes: Buffer,
): { ok: true; values: Record<string, number | boolean> } | { ok: false; error: string } {
  const fields = (fPort !== undefined ? decoder.ports[String(fPort)] : undefined) ?? decoder.ports['*'];
  if (!fields) return { ok: false, error: `no fields for fPort ${fPort}` };
  const values: Record<string, number | boolean> = {};
  for (const f of fields) {
    if (f.offset + SIZE[f.type] > bytes.length)
      return { ok: false, error: `field ${f.name} beyond ${bytes.length} bytes` };
    if (f.type === 'bit') {
      values[f.name] = ((bytes[f.offset] >> (f.bit ?? 0)) & 1) === 1;
      continue;
    }
    const le = f.littleEndian === true;
    let raw: number;
    switch (f.type) {
      case 'u8':
        raw = bytes.readUInt8(f.offset);
        break;
      case 'i8':
        raw = bytes.readInt8(f.offset);
        break;
      case 'u16':
        raw = le ? bytes.readUInt16LE(f.offset) : bytes.readUInt16BE(f.offset);
        break;
      case 'i16':
        raw = le ? bytes.readInt16LE(f.offset) : bytes.readInt16BE(f.offset);
        break;
      case 'u32':
        raw = le ? bytes.readUInt32LE(f.offset) : bytes.readUInt32BE(f.offset);
        break;
      case 'i32':
        raw = le ? bytes.readInt32LE(f.offset) : bytes.readInt32BE(f.offset);
        break;
      case 'f32':
        raw = le ? bytes.readFloatLE(f.offset) : bytes.readFloatBE(f.offset);
        break;
    }
    const v = raw * (f.scale ?? 1) + (f.add ?? 0);
    // scaling by 0.1 leaves binary noise (22.500000000000004); keep what the table meant
    values[f.name] = Number.isFinite(v) ? Number(v.toPrecision(12)) : NaN;
    if (!Number.isFinite(v)) return { ok: false, error: `field ${f.name} is not a finite number` };
  }
  return { ok: true, values };
}
