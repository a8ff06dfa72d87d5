// Card answers kept for the next viewer asking the same thing: keyed by the parsed dashboard (a new object after any
// edit), the component and the filter query; dropped the moment something the answer read changes (the same index
// keys the live push uses: committed points and states, presence, registry changes) and after `ttlMs` at the latest,
// since a window relative to now drifts with the clock. Evaluating a 30-day chart costs ~1.7 ms; a hit costs a lookup.
// Evaluation is asynchronous: a change announced while an answer was being read may not be in it, so an answer is kept
// only when nothing it read was touched between `begin` and `set`.
import type { CardResult } from './cardData.js';

/** one evaluation in flight: the index keys touched since it began */
export interface Evaluation {
  touched: Set<string> | null;
}

interface Entry {
  key: string;
  result: CardResult;
  at: number;
}

export function createAnswerCache(opts: { ttlMs: number; maxEntries: number; now: () => number }) {
  const entries = new Map<string, Entry>();
  /** index key (cardQuery depKey) → the entries that read it */
  const byDep = new Map<string, Set<Entry>>();
  const viewIds = new WeakMap<object, number>();
  let nextViewId = 1;
  const stats = { hits: 0, misses: 0, dropped: 0, stale: 0 };
  const inFlight = new Set<Evaluation>();

  function drop(e: Entry) {
    if (entries.get(e.key) !== e) return;
    entries.delete(e.key);
    for (const k of e.result.deps) {
      const set = byDep.get(k);
      if (!set) continue;
      set.delete(e);
      if (set.size === 0) byDep.delete(k);
    }
  }

  return {
    /** the key of one question: a dashboard object as read (identity), a component, a filter query */
    keyOf(view: object, component: string, query: unknown): string {
      let id = viewIds.get(view);
      if (id === undefined) viewIds.set(view, (id = nextViewId++));
      return `${id}\u0000${component}\u0000${JSON.stringify(query)}`;
    },
    get(key: string): CardResult | undefined {
      const e = entries.get(key);
      if (e && opts.now() - e.at < opts.ttlMs) {
        stats.hits++;
        return e.result;
      }
      if (e) drop(e);
      stats.misses++;
      return undefined;
    },
    /** an evaluation whose answer will be `set` starts now */
    begin(): Evaluation {
      const e: Evaluation = { touched: null };
      inFlight.add(e);
      return e;
    },
    end(e: Evaluation): void {
      inFlight.delete(e);
    },
    /** keeps the answer; not when `evaluation` (begun before it was read) saw one of the keys it read touched */
    set(key: string, result: CardResult, evaluation?: Evaluation): void {
      const touched = evaluation?.touched;
      if (touched) for (const k of result.deps) if (touched.has(k)) return void stats.stale++;
      const old = entries.get(key);
      if (old) drop(old);
      // bounded: the oldest answers go first (a Map iterates in insertion order)
      while (entries.size >= opts.maxEntries) drop(entries.values().next().value!);
      const e: Entry = { key, result, at: opts.now() };
      entries.set(key, e);
      for (const k of result.deps) {
        let set = byDep.get(k);
        if (!set) byDep.set(k, (set = new Set()));
        set.add(e);
      }
    },
    /** something these index keys stand for changed: every answer that read one of them is gone */
    touch(keys: Iterable<string>): void {
      if (inFlight.size > 0) {
        const list = [...keys];
        keys = list;
        for (const e of inFlight) {
          const t = (e.touched ??= new Set());
          for (const k of list) t.add(k);
        }
      }
      if (entries.size === 0) return;
      for (const k of keys) {
        const set = byDep.get(k);
        if (!set) continue;
        for (const e of [...set]) (drop(e), stats.dropped++);
      }
    },
    clear(): void {
      entries.clear();
      byDep.clear();
    },
    get size() {
      return entries.size;
    },
    /** evaluations in flight (they must hear of changes too) */
    get evaluating() {
      return inFlight.size;
    },
    stats,
  };
}

export type AnswerCache = ReturnType<typeof createAnswerCache>;
