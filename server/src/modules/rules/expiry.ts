// Node expiry (category 10009, docs/decisions/rules.md "Node expiry"): a device of an application with a node-expired
// rule is "expired" once silent for the rule's `duration_s` (default NODE_EXPIRY_DEFAULT_S). The watch keeps, in memory,
// when each such device was last heard (committed telemetry, status events) and checks those times every few seconds:
// nothing is read from the database. An expiry event is published once per silence and threshold (value = the
// threshold in seconds; a rule fires on the event whose value is its own expiry).
import type { RuleEngine } from './engine.js';

export const NODE_EXPIRY_DEFAULT_S = 3600;
export const EXPIRY_SWEEP_MS = 5000;

export const expiryOf = (durationMs: number) => (durationMs > 0 ? durationMs / 1000 : NODE_EXPIRY_DEFAULT_S);

interface Heard {
  appId: number;
  at: number;
  /** thresholds (s) already published for this silence */
  done: Set<number>;
}

export function createExpiryWatch({ engine, publish, now, sweepMs = EXPIRY_SWEEP_MS }: { engine: Pick<RuleEngine, 'rulesOf' | 'watching'>; publish: (appId: number, deviceId: number, silenceS: number) => void; now: () => number; sweepMs?: number }) {
  const heard = new Map<number, Heard>();
  let timer: NodeJS.Timeout | undefined;

  function sweep() {
    const t = now();
    const thresholds = new Map<number, number[]>();
    for (const [deviceId, h] of heard) {
      let list = thresholds.get(h.appId);
      if (!list) thresholds.set(h.appId, (list = [...new Set(engine.rulesOf(h.appId, 10009).map((r) => expiryOf(r.durationMs)))]));
      if (list.length === 0) {
        heard.delete(deviceId);
        continue;
      }
      for (const s of list) {
        if (t - h.at >= s * 1000 && !h.done.has(s)) {
          h.done.add(s);
          publish(h.appId, deviceId, s);
        }
      }
    }
  }

  return {
    heard(appId: number, deviceId: number) {
      const h = heard.get(deviceId);
      if (h) {
        h.at = now();
        if (h.done.size) h.done.clear();
      } else if (engine.watching(appId) && engine.rulesOf(appId, 10009).length > 0) heard.set(deviceId, { appId, at: now(), done: new Set() });
    },
    forget: (deviceId: number) => void heard.delete(deviceId),
    sweep,
    start() {
      timer ??= setInterval(sweep, sweepMs);
      timer.unref?.();
    },
    close() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
