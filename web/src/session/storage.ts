// Where sessions live in the browser (spec 01 section 3): the tenant's id and token under one local-storage key each,
// and an application user's id and token per domain. An incomplete or malformed pair is cleared on read.

export type Principal = { kind: 'tenant' } | { kind: 'member'; domain: string };

export interface StoredSession {
  id: number;
  token: string;
  /** display name from the sign-in answer (not part of the credentials) */
  name?: string;
}

export interface SessionStore {
  read(p: Principal): StoredSession | null;
  write(p: Principal, s: StoredSession): void;
  clear(p: Principal): void;
}

export const TENANT_ID_KEY = 'sentra.tenant.id';
export const TENANT_TOKEN_KEY = 'sentra.tenant.token';

/** The three keys of a principal: id, token, name. */
export function keysOf(p: Principal): { id: string; token: string; name: string } {
  if (p.kind === 'tenant') return { id: TENANT_ID_KEY, token: TENANT_TOKEN_KEY, name: 'sentra.tenant.name' };
  const prefix = `sentra.account.${p.domain}`;
  return { id: `${prefix}.id`, token: `${prefix}.token`, name: `${prefix}.name` };
}

export function principalKey(p: Principal): string {
  return p.kind === 'tenant' ? 'tenant' : `member:${p.domain}`;
}

export function createSessionStore(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>): SessionStore {
  const clear = (p: Principal) => {
    const k = keysOf(p);
    storage.removeItem(k.id);
    storage.removeItem(k.token);
    storage.removeItem(k.name);
  };
  return {
    read(p) {
      const k = keysOf(p);
      const rawId = storage.getItem(k.id);
      const token = storage.getItem(k.token);
      if (rawId === null && token === null) return null;
      const id = Number(rawId);
      if (!token || !rawId || !Number.isSafeInteger(id) || id <= 0) {
        clear(p);
        return null;
      }
      const name = storage.getItem(k.name) ?? undefined;
      return { id, token, name };
    },
    write(p, s) {
      const k = keysOf(p);
      storage.setItem(k.id, String(s.id));
      storage.setItem(k.token, s.token);
      if (s.name) storage.setItem(k.name, s.name);
      else storage.removeItem(k.name);
    },
    clear,
  };
}

/** A store over memory, for tests and for browsers that refuse local storage. */
export function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, String(v)),
  };
}

function browserStorage(): Storage {
  try {
    const s = window.localStorage;
    s.getItem('sentra.probe');
    return s;
  } catch {
    return memoryStorage();
  }
}

export const sessionStore: SessionStore = createSessionStore(
  typeof window !== 'undefined' ? browserStorage() : memoryStorage(),
);
