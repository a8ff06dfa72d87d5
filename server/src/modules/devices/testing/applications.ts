// Test support: the rows a devices, tags or LoRa store suite needs around it (a tenant and applications 1 and 2).
import { sql } from 'drizzle-orm';
import type { AppStore } from '../../../db.js';

export async function seedApplications(store: AppStore) {
  await store.exec(
    sql`insert into tenants (id, username, first, email, pass_hash, tenant_name, billing_expires_at, created_at) values (1, 'ops', 'Ops', 'ops@example.test', 'x', 'PT Ops', 9999999999999, 0)`,
  );
  for (const id of [1, 2])
    await store.exec(
      sql`insert into applications (id, tenant_id, name, domain, created_at) values (${id}, 1, ${`App ${id}`}, ${`app${id}`}, 0)`,
    );
}
