// The callers this process resolved recently, by the credentials they presented: a card dashboard sends
// the same session headers many times a second, and resolving them (session, application, account, role) costs more
// than answering the card. An entry lives until the next access change (see access-changes.ts) or `ttlMs`, whichever
// comes first; the time limit only bounds what a write that bypassed the services (a hand edit of the database) leaves.
import type { Caller } from '../../platform/http/mount.js';
import type { AccessChanges } from './access-changes.js';

export const CALLER_TTL_MS = 5000;
const MAX_CALLERS = 10_000;

/**
 * Answers that depend on access data, by key: an entry lives until the next access change (every entry dropped at once:
 * changes are rare, and nothing can be forgotten by a narrower rule) or `ttlMs` after `from` (its set, by default),
 * whichever comes first; at most `max`, the oldest dropped first. The callers below and the tenants' billing dates
 * (billing-cache.ts) are kept in one of these.
 */
export function createAccessCache<K, V>(
  changes: Pick<AccessChanges, 'access'>,
  opts: { now?: () => number; ttlMs: number; max: number },
) {
  const now = opts.now ?? Date.now;
  const entries = new Map<K, { value: V; expiresAt: number }>();
  let generation = changes.access;
  /** false (and everything dropped) when access data changed since the last look */
  const unchanged = () => {
    if (changes.access === generation) return true;
    entries.clear();
    generation = changes.access;
    return false;
  };

  return {
    get(key: K): V | undefined {
      if (!unchanged()) return undefined;
      const e = entries.get(key);
      if (!e) return undefined;
      if (e.expiresAt <= now()) {
        entries.delete(key);
        return undefined;
      }
      return e.value;
    },
    set(key: K, value: V, from = now()): void {
      unchanged();
      // the oldest entry goes first (a Map iterates in insertion order)
      if (entries.size >= opts.max) entries.delete(entries.keys().next().value!);
      entries.set(key, { value, expiresAt: from + opts.ttlMs });
    },
    get size() {
      return entries.size;
    },
  };
}

export interface CallerCache {
  /** the caller resolved for `key`, unless access data changed since, or it is older than the time limit */
  get(key: string): Caller | undefined;
  set(key: string, caller: Caller): void;
  readonly size: number;
}

export function createCallerCache(
  changes: Pick<AccessChanges, 'access'>,
  opts: { now?: () => number; ttlMs?: number; max?: number } = {},
): CallerCache {
  const cache = createAccessCache<string, Caller>(changes, {
    now: opts.now,
    ttlMs: opts.ttlMs ?? CALLER_TTL_MS,
    max: opts.max ?? MAX_CALLERS,
  });
  return {
    get: (key) => cache.get(key),
    set: (key, caller) => cache.set(key, freeze(caller)),
    get size() {
      return cache.size;
    },
  };
}

/** A cached caller is shared by every request presenting the same credentials: nobody may change it. */
function freeze(caller: Caller): Caller {
  if (caller.app) Object.freeze(caller.app);
  if (caller.grants) Object.freeze(Object.freeze(caller.grants).permissions);
  return Object.freeze(caller);
}
