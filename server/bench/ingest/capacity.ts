// The capacity step search of the ingest benchmark: the highest offered rate that passes (p99 publish → stored within
// its bound, nothing lost), found in a bounded number of short phases. Pure: the phase runner is given, so the search
// is unit-tested without a gateway (capacity.test.ts).

export interface CapacityStep {
  rate: number;
  ok: boolean;
}

export interface CapacitySearch {
  /** offered points/s to try first */
  start: number;
  /** factor applied while every step passes (up) or fails (down), > 1 */
  growth: number;
  /** stop bisecting once the failing rate is within this share above the passing one (0.1 = 10 %) */
  resolution: number;
  /** at most this many phases */
  maxSteps: number;
  /** no new phase starts after this many ms from the search's start */
  budgetMs: number;
  /** rates are rounded to this many points/s (the fleet's pacing is not finer than that) */
  quantum: number;
  /** lowest rate worth trying: below it the search reports capacity 0 */
  floor: number;
  /** runs one phase at `rate` and answers whether it passed */
  attempt(rate: number): Promise<boolean>;
  now?: () => number;
}

export interface CapacityResult {
  /** the highest rate that passed; 0 when none did */
  capacity: number;
  /** the lowest rate that failed; null when none did (the capacity is at least `capacity`) */
  lowestFailed: number | null;
  steps: CapacityStep[];
  /** why the search ended: 'resolved' (bracketed within the resolution), 'steps', 'budget' or 'floor' */
  ended: 'resolved' | 'steps' | 'budget' | 'floor';
}

/**
 * Grows the rate by `growth` while phases pass, shrinks it while they fail, then bisects between the highest pass and
 * the lowest fail until they are within `resolution` of each other. Bounded by `maxSteps` and `budgetMs`.
 */
export async function findCapacity(o: CapacitySearch): Promise<CapacityResult> {
  if (!(o.growth > 1) || !(o.resolution > 0) || !(o.quantum > 0))
    throw new Error('growth > 1, resolution > 0 and quantum > 0');
  const now = o.now ?? (() => Date.now());
  const started = now();
  const round = (r: number) => Math.max(o.quantum, Math.round(r / o.quantum) * o.quantum);
  const steps: CapacityStep[] = [];
  let passed = 0;
  let failed: number | null = null;
  let rate = round(o.start);
  for (;;) {
    if (steps.length >= o.maxSteps) return { capacity: passed, lowestFailed: failed, steps, ended: 'steps' };
    if (now() - started >= o.budgetMs) return { capacity: passed, lowestFailed: failed, steps, ended: 'budget' };
    const ok = await o.attempt(rate);
    steps.push({ rate, ok });
    if (ok) passed = Math.max(passed, rate);
    else failed = failed === null ? rate : Math.min(failed, rate);
    let next: number;
    if (failed === null) next = round(rate * o.growth);
    else if (passed === 0) {
      next = round(rate / o.growth);
      if (next < o.floor || next >= rate) return { capacity: 0, lowestFailed: failed, steps, ended: 'floor' };
    } else {
      if (failed <= passed * (1 + o.resolution))
        return { capacity: passed, lowestFailed: failed, steps, ended: 'resolved' };
      next = round((passed + failed) / 2);
      // the quantum cannot split the bracket any further
      if (next <= passed || next >= failed) return { capacity: passed, lowestFailed: failed, steps, ended: 'resolved' };
    }
    rate = next;
  }
}
