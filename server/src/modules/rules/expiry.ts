// Node expiry (category 10009, docs/decisions/rules.md "Node expiry"): a device of an application with a node-expired
// rule is "expired" once silent for the rule's `duration_s` (default NODE_EXPIRY_DEFAULT_S). The watch keeps, in memory,
// when each such device was last heard (committed telemetry, status events) and publishes an expiry event once per
// silence and threshold (value = the threshold in seconds; a rule fires on the event whose value is its own expiry).
//
// When an application gets its first node-expired rule (at start, when the rules are loaded, or later) its devices are
// seeded from what the database knows of them (`seed`: the newest stored point, the last online/offline change), so a
// device that went silent before a restart still expires. Each watched device has one entry in a min-heap keyed by
// when its next threshold falls due, and one timer waits for the earliest: nothing is scanned per tick, and a message
// only moves the device's `at` (its heap key is corrected when it comes up, never earlier than due).
import type { RuleEngine } from './engine.js';
import type { Logger } from '../../platform/log.js';

export const NODE_EXPIRY_DEFAULT_S = 3600;
/** the longest a timer is set for (Node's limit is ~24.8 days); a later due is looked at again then */
const MAX_TIMER_MS = 3_600_000;

export const expiryOf = (durationMs: number) => (durationMs > 0 ? durationMs / 1000 : NODE_EXPIRY_DEFAULT_S);

/** A device as the database last knew it, for seeding. */
export interface SeedDevice {
  deviceId: number;
  /** when it was last heard (ms); a device never heard is not watched */
  at: number;
  /** thresholds (s) whose expiry of this silence is already recorded (a task of such a rule after `at`) */
  reported?: readonly number[];
}

interface Watched {
  appId: number;
  deviceId: number;
  at: number;
  /** thresholds (s) already published for this silence */
  done: Set<number>;
  /** heap key: when the next threshold may be due (never later than it really is) */
  due: number;
  /** position in the heap, -1 when every threshold of this silence is published */
  i: number;
}

export interface ExpiryWatchDeps {
  engine: Pick<RuleEngine, 'rulesOf'>;
  publish: (appId: number, deviceId: number, silenceS: number) => void;
  /** the application's devices as stored (read once when it gets its first node-expired rule) */
  seed?: (appId: number) => Iterable<SeedDevice> | Promise<Iterable<SeedDevice>>;
  now: () => number;
  log?: Pick<Logger, 'error'>;
}

export function createExpiryWatch({ engine, publish, seed, now, log }: ExpiryWatchDeps) {
  /** application → its node-expired thresholds (s), ascending */
  const apps = new Map<number, number[]>();
  const watched = new Map<number, Watched>();
  const heap: Watched[] = [];
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let armedFor = Infinity;

  // ---- the heap (min by due), each entry knowing its position ----
  const swap = (a: number, b: number) => {
    const x = heap[a]!;
    heap[a] = heap[b]!;
    heap[b] = x;
    heap[a]!.i = a;
    heap[b]!.i = b;
  };
  function up(i: number) {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heap[p]!.due <= heap[i]!.due) return;
      swap(i, p);
      i = p;
    }
  }
  function down(i: number) {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && heap[l]!.due < heap[m]!.due) m = l;
      if (r < heap.length && heap[r]!.due < heap[m]!.due) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  }
  function place(w: Watched, due: number | null) {
    if (due === null) {
      if (w.i < 0) return;
      const last = heap.length - 1;
      const i = w.i;
      if (i !== last) swap(i, last);
      heap.pop();
      w.i = -1;
      if (i < heap.length) {
        up(i);
        down(i);
      }
      return;
    }
    w.due = due;
    if (w.i < 0) {
      w.i = heap.length;
      heap.push(w);
      up(w.i);
    } else {
      up(w.i);
      down(w.i);
    }
  }

  /** when the device's next unpublished threshold falls due, or null when all are published */
  function nextDue(w: Watched): number | null {
    for (const s of apps.get(w.appId) ?? []) if (!w.done.has(s)) return w.at + s * 1000;
    return null;
  }

  function arm() {
    if (!started) return;
    const top = heap[0];
    if (!top) {
      clearTimeout(timer);
      timer = undefined;
      armedFor = Infinity;
      return;
    }
    if (timer && armedFor <= top.due) return;
    clearTimeout(timer);
    armedFor = top.due;
    timer = setTimeout(run, Math.min(MAX_TIMER_MS, Math.max(0, top.due - now())));
    timer.unref?.();
  }

  /** publishes what fell due; each device's entry moves to its next threshold */
  function run() {
    timer = undefined;
    armedFor = Infinity;
    const t = now();
    while (heap.length && heap[0]!.due <= t) {
      const w = heap[0]!;
      for (const s of apps.get(w.appId) ?? []) {
        if (t - w.at >= s * 1000 && !w.done.has(s)) {
          w.done.add(s);
          publish(w.appId, w.deviceId, s);
        }
      }
      place(w, nextDue(w));
    }
    arm();
  }

  function watch(appId: number, deviceId: number, at: number, reported: readonly number[] = []) {
    const w: Watched = { appId, deviceId, at, done: new Set(reported), due: 0, i: -1 };
    watched.set(deviceId, w);
    place(w, nextDue(w));
  }

  function unwatch(w: Watched) {
    place(w, null);
    watched.delete(w.deviceId);
  }

  /** the application's stored devices; one heard since (or before the read came back) keeps its newer time */
  function seeded(appId: number, devices: Iterable<SeedDevice>) {
    if (!apps.has(appId)) return;
    const t = now();
    for (const d of devices) if (!watched.has(d.deviceId)) watch(appId, d.deviceId, Math.min(d.at, t), d.reported);
    arm();
  }

  return {
    /** the device was heard now (a committed message, a status change) */
    heard(appId: number, deviceId: number) {
      const w = watched.get(deviceId);
      if (w) {
        w.at = now();
        // a new silence: its thresholds all come again; otherwise the heap key stays (early is corrected when due)
        if (w.done.size) {
          w.done.clear();
          place(w, nextDue(w));
          arm();
        }
      } else if (apps.has(appId)) {
        watch(appId, deviceId, now());
        arm();
      }
    },
    forget(deviceId: number) {
      const w = watched.get(deviceId);
      if (w) unwatch(w);
      arm();
    },
    /** the node-expired rules of an application changed (added, edited, removed, loaded at start) */
    rulesChanged(appId: number) {
      const thresholds = [...new Set(engine.rulesOf(appId, 10009).map((r) => expiryOf(r.durationMs)))].sort(
        (a, b) => a - b,
      );
      const had = apps.has(appId);
      if (thresholds.length === 0) {
        if (!had) return;
        apps.delete(appId);
        for (const w of [...watched.values()]) if (w.appId === appId) unwatch(w);
      } else {
        apps.set(appId, thresholds);
        if (!had) {
          const stored = seed?.(appId);
          if (stored instanceof Promise)
            stored.then(
              (devices) => seeded(appId, devices),
              (err) => log?.error(`node-expiry: the devices of application ${appId} not read`, err),
            );
          else if (stored) seeded(appId, stored);
        } else for (const w of watched.values()) if (w.appId === appId) place(w, nextDue(w));
      }
      arm();
    },
    /** devices watched and heap entries (bounded by the watched devices) */
    size: () => ({ devices: watched.size, heap: heap.length }),
    start() {
      started = true;
      arm();
    },
    close() {
      started = false;
      clearTimeout(timer);
      timer = undefined;
      armedFor = Infinity;
    },
  };
}

export type ExpiryWatch = ReturnType<typeof createExpiryWatch>;
