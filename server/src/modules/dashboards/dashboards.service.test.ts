// The service's one rule about concurrent writers: a path another add took meanwhile (PostgreSQL's unique index refuses
// the second insert) is picked again, a bounded number of times; any other failure is not retried.
import { describe, expect, it } from 'vitest';
import type { Caller } from '../../platform/http/mount.js';
import { createDashboardsService } from './dashboards.service.js';
import type { DashboardsStore } from './dashboards.store.js';

const caller = { kind: 'tenant', app: { id: 1 } } as Caller;
const grants = { assert: async () => undefined, scopeOf: async () => 'all' as const, within: () => true };
const unique = Object.assign(new Error('insert failed'), { cause: { code: '23505' } });

function serviceFailing(failures: Error[]) {
  let attempts = 0;
  const store = {
    add: async () => {
      attempts++;
      const err = failures.shift();
      if (err) throw err;
      return { id: 3, path: 'gedung-2' };
    },
  } as unknown as DashboardsStore;
  return { service: createDashboardsService(store, { grants }), attempts: () => attempts };
}

const input = { label: 'Gedung', conf_dashboard: {} as never };

describe('dashboards service, concurrent adds', () => {
  it('picks a path again when another add took it meanwhile', async () => {
    const s = serviceFailing([unique, unique]);
    expect(await s.service.add(caller, input)).toEqual({ id: 3, path: 'gedung-2' });
    expect(s.attempts()).toBe(3);
  });

  it('gives up after a few attempts, and does not retry another failure', async () => {
    const s = serviceFailing(Array.from({ length: 10 }, () => unique));
    await expect(s.service.add(caller, input)).rejects.toBe(unique);
    expect(s.attempts()).toBe(5);
    const other = new Error('disk full');
    const t = serviceFailing([other]);
    await expect(t.service.add(caller, input)).rejects.toBe(other);
    expect(t.attempts()).toBe(1);
  });
});
