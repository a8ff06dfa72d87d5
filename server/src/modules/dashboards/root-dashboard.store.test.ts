// A root dashboard added for a device (devices' "Generate Dashboard") on both engines: last among the roots, at a path
// the application does not have yet.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { seedApplications } from '../devices/testing/applications.js';
import { addRootDashboard } from './dashboards.store.js';
import { uniquePath } from './paths.js';

forEachEngine('root dashboard add', (open) => {
  let opened: OpenedStore;
  beforeAll(async () => {
    opened = await open();
    await seedApplications(opened.store);
  });
  afterAll(() => opened?.close());

  const add = (appId: number, label: string) =>
    addRootDashboard(opened.store, {
      appId,
      label,
      pathFor: (taken) => uniquePath(label, taken),
      confDashboard: '{"version":"2"}',
      createdAt: 5,
    });

  it('puts it after the last root at a free path of its application', async () => {
    await opened.store.exec(
      sql`insert into dashboards (app_id, label, path, parent_id, sort, created_at) values (1, 'Induk', 'induk', null, 4, 0)`,
    );
    await opened.store.exec(
      sql`insert into dashboards (app_id, label, path, parent_id, sort, created_at) values (1, 'Anak', 'pompa', 1, 9, 0)`,
    );
    const first = await add(1, 'Pompa');
    expect(first).toMatchObject({ label: 'Pompa', path: 'pompa-2' });
    expect(await add(1, 'Pompa')).toMatchObject({ path: 'pompa-3' });
    expect(await add(2, 'Pompa')).toMatchObject({ path: 'pompa' });
    expect(
      await opened.store.rows(
        sql`select path, sort, parent_id, conf_dashboard from dashboards where app_id = 1 order by id`,
      ),
    ).toEqual([
      { path: 'induk', sort: 4, parent_id: null, conf_dashboard: '{}' },
      { path: 'pompa', sort: 9, parent_id: 1, conf_dashboard: '{}' },
      { path: 'pompa-2', sort: 5, parent_id: null, conf_dashboard: '{"version":"2"}' },
      { path: 'pompa-3', sort: 6, parent_id: null, conf_dashboard: '{"version":"2"}' },
    ]);
    expect(await opened.store.rows(sql`select sort from dashboards where app_id = 2`)).toEqual([{ sort: 0 }]);
  });
});
