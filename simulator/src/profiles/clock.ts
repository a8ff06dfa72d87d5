// Counters as functions of time. A counter (kWh, odometer, litres sold, cycles) reads at time t what its device's
// seed and t say, never what the steps that led to t added up: the demo's replayed week (30-minute steps), the live
// run (10-second steps) and a run restarted tomorrow read one continuous series. Rates that follow the week's rhythm
// are integrated in closed form from a table of one week; events (a laundry cycle) are decided per hour by a hash of
// the device, the machine and the hour, and counted from a fixed epoch.
import { hash128 } from '../rng.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const WEEK_MINUTES = 7 * 24 * 60;
/** local time of the simulated world: Asia/Jakarta, UTC+7 all year */
const LOCAL_OFFSET = 7 * HOUR;

/** Monday 6 January 2020 00:00 in Jakarta: where every counter's integral and every event count starts. */
export const SIM_EPOCH = Date.UTC(2020, 0, 5, 17);

/** Where `t` lies in its local week: weekday 0 = Monday … 6 = Sunday, and the hour of the day (fractional). */
export function weekPosition(t: number): { weekday: number; hour: number } {
  const inWeek = (((t - SIM_EPOCH) % WEEK) + WEEK) % WEEK;
  return { weekday: Math.floor(inWeek / DAY), hour: (inWeek % DAY) / HOUR };
}

/** The start of the local day containing `t`. */
export const localDayStart = (t: number): number => Math.floor((t + LOCAL_OFFSET) / DAY) * DAY - LOCAL_OFFSET;

/**
 * A rate that repeats every week (per hour: kW, km/h, litres per hour), integrated in closed form: ∫ rate dt from
 * SIM_EPOCH to t in rate·hours, from a table of its cumulative integral per minute of one week (the rate sampled at
 * each minute's middle, linear inside a minute). O(1) per reading.
 */
export class WeeklyRate {
  private readonly cum = new Float64Array(WEEK_MINUTES + 1);

  constructor(readonly rate: (weekday: number, hour: number) => number) {
    for (let m = 0; m < WEEK_MINUTES; m++) {
      const mid = m + 0.5;
      this.cum[m + 1] = this.cum[m]! + rate(Math.floor(mid / 1440), (mid % 1440) / 60) / 60;
    }
  }

  /** the rate at `t` */
  at(t: number): number {
    const { weekday, hour } = weekPosition(t);
    return this.rate(weekday, hour);
  }

  /** ∫ rate from SIM_EPOCH to t (negative before it), in rate × hours */
  integral(t: number): number {
    const x = (t - SIM_EPOCH) / MINUTE;
    const weeks = Math.floor(x / WEEK_MINUTES);
    const r = x - weeks * WEEK_MINUTES;
    const m = Math.min(WEEK_MINUTES - 1, Math.floor(r));
    const c = this.cum;
    return weeks * c[WEEK_MINUTES]! + c[m]! + (c[m + 1]! - c[m]!) * (r - m);
  }

  /** ∫ rate over [a, b], rate × hours */
  between(a: number, b: number): number {
    return this.integral(b) - this.integral(a);
  }
}

/** A 32-bit key of a text (a device's machine), for `unit`. */
export const keyOf = (text: string): number => hash128(text)[0]!;

/** A uniform number in [0, 1) from a key and two integers: the same on every run and machine (a 32-bit mix). */
export function unit(key: number, a: number, b = 0): number {
  let h =
    Math.imul(key ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(a | 0, 0xc2b2ae35) ^ Math.imul(b + 0x27d4eb2f, 0x165667b1);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** Integer hours since SIM_EPOCH of the hour containing `t`. */
export const hourIndex = (t: number): number => Math.floor((t - SIM_EPOCH) / HOUR);
/** The instant an hour index starts. */
export const hourStart = (h: number): number => SIM_EPOCH + h * HOUR;

/**
 * Events decided per hour (at most one per hour, inside it): `slot(h)` answers the event of hour h or null. Counts
 * since SIM_EPOCH are kept per day (SIM_EPOCH is a local midnight, so every 24th hour is one), so a reading costs the
 * hours of its day, and the first count after a start one pass over the days since SIM_EPOCH (numeric hashing: a few
 * milliseconds a year).
 */
export class HourlyEvents<E extends { start: number; end: number }> {
  /** events started before day d's first hour, and the sum of their weights: index d */
  private readonly dayCount: number[] = [0];
  private readonly dayWeight: number[] = [0];

  constructor(
    readonly slot: (h: number) => E | null,
    private readonly weigh: (e: E) => number = () => 0,
  ) {}

  /** events started at or before `t` since SIM_EPOCH (negative before it), and the sum of their weights */
  upTo(t: number): { count: number; weight: number } {
    const h = hourIndex(t);
    let count = 0;
    let weight = 0;
    if (h < 0) {
      for (let i = h; i < 0; i++) {
        const e = this.slot(i);
        if (e && e.start > t) (count--, (weight -= this.weigh(e)));
      }
      return { count, weight };
    }
    const day = Math.floor(h / 24);
    for (let d = this.dayCount.length - 1; d < day; d++) {
      let c = this.dayCount[d]!;
      let w = this.dayWeight[d]!;
      for (let i = d * 24; i < (d + 1) * 24; i++) {
        const e = this.slot(i);
        if (e) (c++, (w += this.weigh(e)));
      }
      this.dayCount.push(c);
      this.dayWeight.push(w);
    }
    count = this.dayCount[day]!;
    weight = this.dayWeight[day]!;
    for (let i = day * 24; i <= h; i++) {
      const e = this.slot(i);
      if (e && e.start <= t) (count++, (weight += this.weigh(e)));
    }
    return { count, weight };
  }

  /** the event running at `t`, if any */
  runningAt(t: number): E | null {
    const e = this.slot(hourIndex(t));
    return e && e.start <= t && t < e.end ? e : null;
  }

  /** the latest event started at or before `t`, looking back at most `hours` */
  lastBefore(t: number, hours = 48): E | null {
    const h = hourIndex(t);
    for (let i = h; i > h - hours; i--) {
      const e = this.slot(i);
      if (e && e.start <= t) return e;
    }
    return null;
  }

  /** events starting in (a, b], in time order */
  startedIn(a: number, b: number): E[] {
    const out: E[] = [];
    for (let i = hourIndex(a); i <= hourIndex(b); i++) {
      const e = this.slot(i);
      if (e && e.start > a && e.start <= b) out.push(e);
    }
    return out;
  }

  /** events ending in (a, b], in time order */
  endedIn(a: number, b: number): E[] {
    const out: E[] = [];
    for (let i = hourIndex(a); i <= hourIndex(b); i++) {
      const e = this.slot(i);
      if (e && e.end > a && e.end <= b) out.push(e);
    }
    return out;
  }
}

/** One instance per key for the process (profiles keep plain data in their state; the memo lives here). */
export function memoBy<T>(make: (key: string) => T): (key: string) => T {
  const kept = new Map<string, T>();
  return (key) => {
    let v = kept.get(key);
    if (v === undefined) {
      if (kept.size > 10_000) kept.clear();
      kept.set(key, (v = make(key)));
    }
    return v;
  };
}
