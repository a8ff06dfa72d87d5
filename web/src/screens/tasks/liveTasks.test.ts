import { describe, expect, it } from 'vitest';
import type { Task } from '@sentra/contracts';
import { applyPushes } from './liveTasks.js';

const task = (id: number, over: Partial<Task> = {}): Task => ({
  id,
  title: `Tugas ${id}`,
  description: '',
  status: 1,
  status_value: 'New',
  notification_active: true,
  rule_id: 1,
  rule_name: 'r',
  category: 11,
  device_id: 3,
  device_name: 'Meter',
  occurrences: 1,
  last_value: '12',
  first_ts: 1,
  last_ts: 1,
  created_at: 1,
  updated_at: 1,
  ...over,
});

describe('live task pushes on the list page', () => {
  it('changes a shown task in place without a reload', () => {
    const r = applyPushes(
      [task(1), task(2)],
      [{ kind: 'changed', task: task(2, { status: 4, status_value: 'Solved' }) }],
    );
    expect(r.reload).toBe(false);
    expect(r.rows.map((t) => t.status_value)).toEqual(['New', 'Solved']);
  });
  it('reloads for a new task or a change elsewhere; drops a removed one and reloads to fill the page', () => {
    expect(applyPushes([task(1)], [{ kind: 'created', task: task(9) }]).reload).toBe(true);
    expect(applyPushes([task(1)], [{ kind: 'changed', task: task(9) }]).reload).toBe(true);
    const removed = applyPushes([task(1), task(2)], [{ kind: 'removed', task: task(1) }]);
    expect(removed.rows.map((t) => t.id)).toEqual([2]);
    expect(removed.reload).toBe(true);
    expect(applyPushes([task(1)], [{ kind: 'removed', task: task(5) }]).reload).toBe(false);
  });
  it('reloads a list filtered by status when a shown task leaves that status', () => {
    const r = applyPushes([task(1), task(2)], [{ kind: 'changed', task: task(2, { status: 2 }) }], 1);
    expect(r.reload).toBe(true);
    expect(applyPushes([task(1)], [{ kind: 'changed', task: task(1, { occurrences: 2 }) }], 1).reload).toBe(false);
  });
});
