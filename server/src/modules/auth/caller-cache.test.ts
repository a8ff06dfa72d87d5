import { describe, expect, it } from 'vitest';
import type { Caller } from '../../platform/http/mount.js';
import { createAccessChanges } from './access-changes.js';
import { createCallerCache } from './caller-cache.js';

const tenant = (tenantId: number): Caller => ({
  kind: 'tenant',
  tenantId,
  app: { id: 1, tenantId, domain: 'pabrik', name: 'Pabrik', timezone: 'Asia/Jakarta' },
});

describe('caller cache', () => {
  it('answers a caller until the next access change, which drops every entry', () => {
    const changes = createAccessChanges();
    const cache = createCallerCache(changes);
    cache.set('a', tenant(1));
    cache.set('b', tenant(2));
    expect(cache.get('a')?.tenantId).toBe(1);
    changes.changed('access');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps callers over a dashboard change (menus and dashboards have caches of their own)', () => {
    const changes = createAccessChanges();
    const cache = createCallerCache(changes);
    cache.set('a', tenant(1));
    changes.changed('dashboards');
    expect(cache.get('a')?.tenantId).toBe(1);
  });

  it('forgets a caller after the time limit', () => {
    let now = 1_000;
    const cache = createCallerCache(createAccessChanges(), { now: () => now, ttlMs: 5000 });
    cache.set('a', tenant(1));
    now += 4999;
    expect(cache.get('a')).toBeDefined();
    now += 1;
    expect(cache.get('a')).toBeUndefined();
  });

  it('holds at most `max` callers, dropping the oldest first', () => {
    const cache = createCallerCache(createAccessChanges(), { max: 2 });
    cache.set('a', tenant(1));
    cache.set('b', tenant(2));
    cache.set('c', tenant(3));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')?.tenantId).toBe(2);
    expect(cache.get('c')?.tenantId).toBe(3);
  });

  it('shares a caller read-only: a handler cannot change what the next request sees', () => {
    const cache = createCallerCache(createAccessChanges());
    cache.set('a', { ...tenant(1), grants: { navs: new Set(['_user_manage_']), permissions: { task_manage: false } } });
    const caller = cache.get('a')!;
    expect(() => Object.assign(caller, { tenantId: 9 })).toThrow(TypeError);
    expect(() => Object.assign(caller.app!, { id: 9 })).toThrow(TypeError);
    expect(() => Object.assign(caller.grants!.permissions, { task_manage: true })).toThrow(TypeError);
  });
});
