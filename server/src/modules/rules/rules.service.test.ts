// The rules of this gateway's engine after its bus connection came back (rules.service.ts): the announcements of the
// other gateways' writes may have been lost, so every active rule is read again; a changed one is applied, an
// unchanged one keeps its state (no upsert), one no longer active is taken out.
import { describe, expect, it } from 'vitest';
import type { Bus } from '../../platform/bus/types.js';
import { until } from '../../platform/testing/until.js';
import type { RuleEngine } from './engine.js';
import type { RuleRow, RulesStore } from './rules.store.js';
import { createRulesService } from './rules.service.js';

const row = (id: number, updatedAt: number, active = true): RuleRow => ({
  id,
  appId: 1,
  name: `aturan ${id}`,
  key: null,
  category: 1,
  description: '',
  condition: '{"triggers":[]}',
  action: '{"type":"TASK"}',
  details: '{}',
  active,
  createdAt: 1,
  updatedAt,
});

describe('rules after the bus reconnected', () => {
  it('applies the rules changed elsewhere meanwhile, takes out those removed or switched off, and leaves the rest', async () => {
    let stored = [row(1, 10), row(2, 20), row(3, 30)];
    const calls: string[] = [];
    const engine = {
      upsert: (r: { id: number }) => void calls.push(`upsert ${r.id}`),
      remove: (id: number) => void calls.push(`remove ${id}`),
      restore: async () => {},
    } as unknown as RuleEngine;
    const store = { allActive: async () => stored.filter((r) => r.active) } as unknown as RulesStore;
    let connection: ((up: boolean) => void) | undefined;
    const bus: Pick<Bus, 'publish' | 'subscribe' | 'onConnection'> = {
      publish: () => {},
      subscribe: () => ({ unsubscribe() {} }),
      onConnection: (l) => void (connection = l),
    };
    const service = createRulesService({ store, tx: (fn) => fn(), deviceIdsOf: async () => [], engine, bus });
    await service.load();
    expect(calls.splice(0)).toEqual(['upsert 1', 'upsert 2', 'upsert 3']);

    // meanwhile, on another gateway: rule 2 edited, rule 3 switched off, rule 4 added; rule 1 untouched
    stored = [row(1, 10), row(2, 25), row(3, 31, false), row(4, 40)];
    connection!(false);
    connection!(true);
    expect(await until(() => calls.length === 3, 2000)).toBe(true);
    expect(calls.sort()).toEqual(['remove 3', 'upsert 2', 'upsert 4']);
    // a second reconnect with nothing changed touches nothing
    calls.length = 0;
    connection!(true);
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toEqual([]);
  });
});
