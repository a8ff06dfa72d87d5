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

/** series ids below this are found by index; larger ones through a map */
export const MAX_INDEXED_ID = 1 << 22;

/**
 * Values by series id: an array indexed by id below MAX_INDEXED_ID (ids are SQLite's, dense from 1), a map beyond. Every
 * stored point asks for its series and its slots by id, and map lookups were 7 % of the event loop at 150,000 points/s.
 */
export class ById<V> {
  private readonly indexed: (V | undefined)[] = [];
  private readonly beyond = new Map<number, V>();
  size = 0;

  get(id: number): V | undefined {
    return id >= 0 && id < MAX_INDEXED_ID ? this.indexed[id] : this.beyond.get(id);
  }

  set(id: number, value: V): void {
    if (this.get(id) === undefined) this.size++;
    if (id >= 0 && id < MAX_INDEXED_ID) this.indexed[id] = value;
    else this.beyond.set(id, value);
  }

  /** every value held, in id order (beyond the index last) */
  *values(): IterableIterator<V> {
    for (const value of this.indexed) if (value !== undefined) yield value;
    yield* this.beyond.values();
  }

  /** drops every value `drop` answers true for */
  dropWhere(drop: (value: V) => boolean): void {
    for (let id = 0; id < this.indexed.length; id++) {
      const value = this.indexed[id];
      if (value !== undefined && drop(value)) {
        this.indexed[id] = undefined;
        this.size--;
      }
    }
    for (const [id, value] of this.beyond) if (drop(value)) (this.beyond.delete(id), this.size--);
  }
}

/** Series ids as small dense slots, kept for the process: per-series state is then typed arrays indexed by slot. */
export class Slots {
  private readonly slotOf = new ById<number>();
  ids = new Float64Array(MIN_SLOTS);
  size = 0;

  get(seriesId: number): number {
    return this.slotOf.get(seriesId) ?? -1;
  }

  take(seriesId: number): number {
    let slot = this.slotOf.get(seriesId);
    if (slot === undefined) {
      slot = this.size++;
      if (slot === this.ids.length) this.ids = grownF64(this.ids, slot * 2);
      this.ids[slot] = seriesId;
      this.slotOf.set(seriesId, slot);
    }
    return slot;
  }
}
