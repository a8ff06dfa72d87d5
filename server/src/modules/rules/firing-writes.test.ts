// A firing's synchronous writes (write-queue.ts `createFiringWrites`): the rows they write are the ones the tasks store
// and the outbox read back (same columns, same shapes), and they commit or roll back with the engine's transaction.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findUp, openDb } from '../../platform/db/sqlite.js';
import { sqliteStore } from '../../platform/db/store.js';
import * as schema from '../../schema.js';
import { applications } from '../apps/apps.table.js';
import { tenants } from '../auth/auth.table.js';
import { devices } from '../devices/devices.table.js';
import { createOutbox, outboxRows } from '../notifications/outbox.js';
import { createTasksStore } from '../tasks/tasks.store.js';
import { createFiringWrites } from './write-queue.js';

describe('a firing’s writes', () => {
  let handle: ReturnType<typeof openDb<typeof schema>>;
  let appId: number;
  let deviceId: number;
  beforeEach(async () => {
    handle = openDb({ dataDir: ':memory:', schema, migrationsFolder: findUp('drizzle', import.meta.url) });
    const { db } = handle;
    const t = db
      .insert(tenants)
      .values({
        username: 'budi',
        first: 'B',
        email: 'b@contoh.id',
        passHash: 'x',
        tenantName: 'B',
        billingExpiresAt: 1,
        createdAt: 1,
      })
      .returning()
      .get();
    appId = db
      .insert(applications)
      .values({ tenantId: t.id, name: 'Pabrik', domain: 'pabrik', timezone: 'Asia/Makassar', createdAt: 1 })
      .returning()
      .get().id;
    deviceId = db
      .insert(devices)
      .values({
        appId,
        category: 1,
        deviceType: 'x',
        name: 'Genset-01',
        serialNumber: 'SN-9',
        createdAt: 1,
        updatedAt: 1,
      })
      .returning()
      .get().id;
  });
  afterEach(() => handle.close());

  const base = () => ({
    appId,
    ruleId: 3,
    ruleName: 'Suhu tinggi',
    category: 11,
    deviceId,
    deviceName: 'Genset-01',
    title: 'Suhu tinggi',
    description: '',
    status: 1,
    open: true,
    notificationActive: true,
    occurrences: 1,
    lastValue: '91',
    firstTs: 10,
    lastTs: 10,
    createdAt: 20,
    updatedAt: 20,
  });

  it('reads the application and device, writes a task as the tasks store reads it, its occurrences and history', async () => {
    const w = createFiringWrites(handle.sqlite);
    const tasks = createTasksStore(sqliteStore(handle.sqlite, schema));
    expect(w.app(appId)).toEqual({ name: 'Pabrik', timezone: 'Asia/Makassar', tenantId: expect.any(Number) });
    expect(w.app(appId + 1)).toBeUndefined();
    expect(w.device(deviceId)).toEqual({ name: 'Genset-01', serial: 'SN-9' });
    const created = w.transact(() => w.insertTask(base()));
    expect(created).toEqual(await tasks.byId(appId, created.id));
    expect(created).toMatchObject({ open: true, notificationActive: true });
    expect(w.openTask(3, deviceId)).toEqual(created);
    expect(w.openTask(3, deviceId + 1)).toBeUndefined();
    const again = w.occurrence(created.id, '95', 30, 40);
    expect(again).toMatchObject({ occurrences: 2, lastValue: '95', lastTs: 30, updatedAt: 40, firstTs: 10 });
    expect(again).toEqual(await tasks.byId(appId, created.id));
    expect(w.retitle(created.id, 'Genset-01 panas', 'di atas 90')).toMatchObject({
      title: 'Genset-01 panas',
      description: 'di atas 90',
    });
    w.history(created.id, 10, 'created', { status: 1, value: '91' });
    w.history(created.id, 30, 'occurrence');
    expect((await tasks.events(created.id, 10)).map((e) => [e.kind, e.status, e.value])).toEqual([
      ['occurrence', null, null],
      ['created', 1, '91'],
    ]);
  });

  it('writes the messages as the outbox stores them, and nothing when the transaction rolls back', async () => {
    const w = createFiringWrites(handle.sqlite);
    const outbox = createOutbox(sqliteStore(handle.sqlite, schema), { now: () => 50 });
    const message = { tenantId: 1, appId, taskId: 7, channel: 'EMAIL' as const, recipient: 'ops@contoh.id', body: 'x' };
    expect(() =>
      w.transact(() => {
        w.enqueue(outboxRows([message], 50));
        throw new Error('state write failed');
      }),
    ).toThrow('state write failed');
    expect(await outbox.listForTask(appId, 7)).toEqual([]);
    w.transact(() => w.enqueue(outboxRows([message, { ...message, recipient: 'nope', subject: 'S' }], 50)));
    await outbox.enqueue([
      { ...message, taskId: 8 },
      { ...message, taskId: 8, recipient: 'nope', subject: 'S' },
    ]);
    const strip = (l: Awaited<ReturnType<typeof outbox.listForTask>>) => l.map(({ id: _, ...d }) => d);
    expect(strip(await outbox.listForTask(appId, 7))).toEqual(strip(await outbox.listForTask(appId, 8)));
  });
});
