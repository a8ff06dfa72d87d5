// The callers this process resolved recently, by the hashes of the credentials they presented: a card dashboard sends
// the same session headers many times a second, and resolving them (session, application, account, role) costs more
// than answering the card. An entry lives until the next access change (see access-changes.ts) or `ttlMs`, whichever
// comes first; the time limit only bounds what a write that bypassed the services (a hand edit of the database) leaves.
import type { Caller } from '../../platform/http/mount.js';
import type { AccessChanges } from './access-changes.js';

export const CALLER_TTL_MS = 5000;
const MAX_CALLERS = 10_000;

interface Entry {
  caller: Caller;
  expiresAt: number;
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
  const now = opts.now ?? Date.now;
  const ttlMs = opts.ttlMs ?? CALLER_TTL_MS;
  const max = opts.max ?? MAX_CALLERS;
  const entries = new Map<string, Entry>();
  let generation = changes.access;

  return {
    get(key) {
      if (changes.access !== generation) {
        // one change drops everything: changes are rare, and nothing can be forgotten by a narrower rule
        entries.clear();
        generation = changes.access;
        return undefined;
      }
      const e = entries.get(key);
      if (!e) return undefined;
      if (e.expiresAt <= now()) {
        entries.delete(key);
        return undefined;
      }
      return e.caller;
    },
    set(key, caller) {
      if (changes.access !== generation) {
        entries.clear();
        generation = changes.access;
      }
      // the oldest entry goes first (a Map iterates in insertion order)
      if (entries.size >= max) entries.delete(entries.keys().next().value!);
      entries.set(key, { caller: freeze(caller), expiresAt: now() + ttlMs });
    },
    get size() {
      return entries.size;
    },
  };
}

/** A cached caller is shared by every request presenting the same credentials: nobody may change it. */
function freeze(caller: Caller): Caller {
  if (caller.app) Object.freeze(caller.app);
  if (caller.grants) Object.freeze(Object.freeze(caller.grants).permissions);
  return Object.freeze(caller);
}
