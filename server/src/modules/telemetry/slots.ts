// Series ids as small dense slots, and typed arrays grown by copying: the columns that hold per-series state for the
// points held (recent.ts) and the rollup deltas (rollups.ts) without an object per series.

/** the room slot-indexed arrays start with */
export const MIN_SLOTS = 256;

/** `a`'s first `size` values (or all, zero-padded) in a new array of `size` */
export function grownF64(a: Float64Array, size: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(size);
  b.set(a.subarray(0, Math.min(a.length, size)));
  return b;
}
export function grownI32(a: Int32Array, size: number, fill = 0): Int32Array<ArrayBuffer> {
  const b = new Int32Array(size);
  b.set(a.subarray(0, Math.min(a.length, size)));
  if (fill !== 0 && size > a.length) b.fill(fill, a.length);
  return b;
}
export function grownU8(a: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(size);
  b.set(a.subarray(0, Math.min(a.length, size)));
  return b;
}

/** Series ids as small dense slots, kept for the process: per-series state is then typed arrays indexed by slot. */
export class Slots {
  private readonly of = new Map<number, number>();
  ids = new Float64Array(MIN_SLOTS);
  size = 0;

  get(seriesId: number): number {
    return this.of.get(seriesId) ?? -1;
  }

  take(seriesId: number): number {
    let slot = this.of.get(seriesId);
    if (slot === undefined) {
      slot = this.size++;
      if (slot === this.ids.length) this.ids = grownF64(this.ids, slot * 2);
      this.ids[slot] = seriesId;
      this.of.set(seriesId, slot);
    }
    return slot;
  }
}
