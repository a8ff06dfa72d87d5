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

/** series ids below this are found by index (4 bytes each, 16 MB at most); larger ones through a map */
export const MAX_INDEXED_ID = 1 << 22;

/**
 * Series ids as small dense slots, kept for the process: per-series state is then typed arrays indexed by slot. An id
 * (SQLite's, dense from 1) finds its slot by index: this runs for every stored point, and a map lookup was 3 % of the
 * event loop at 150,000 points/s.
 */
export class Slots {
  /** by series id: its slot + 1 (0: none) */
  private byId = new Int32Array(MIN_SLOTS);
  private readonly beyond = new Map<number, number>();
  ids = new Float64Array(MIN_SLOTS);
  size = 0;

  get(seriesId: number): number {
    if (seriesId >= MAX_INDEXED_ID || seriesId < 0) return this.beyond.get(seriesId) ?? -1;
    return seriesId < this.byId.length ? this.byId[seriesId]! - 1 : -1;
  }

  take(seriesId: number): number {
    let slot = this.get(seriesId);
    if (slot < 0) {
      slot = this.size++;
      if (slot === this.ids.length) this.ids = grownF64(this.ids, slot * 2);
      this.ids[slot] = seriesId;
      if (seriesId >= MAX_INDEXED_ID || seriesId < 0) this.beyond.set(seriesId, slot);
      else {
        if (seriesId >= this.byId.length)
          this.byId = grownI32(this.byId, Math.min(MAX_INDEXED_ID, Math.max(seriesId + 1, this.byId.length * 2)));
        this.byId[seriesId] = slot + 1;
      }
    }
    return slot;
  }
}
