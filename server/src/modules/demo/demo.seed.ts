// The demo of `npm start`: on first run, a demo tenant (far billing date) and its application. Idempotent.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db.js';
import { hashPassword } from '../../platform/crypto.js';
import { tenants } from '../auth/auth.table.js';
import { applications } from '../apps/apps.table.js';

export const DEMO = {
  username: 'demo',
  password: 'demo1234',
  appName: 'Demo Sentra',
  domain: 'demo',
} as const;

const FAR_FUTURE = Date.UTC(2099, 11, 31);

export async function seedDemo(db: Db): Promise<{ created: boolean; tenantId: number; appId: number }> {
  const existing = db.select({ id: tenants.id }).from(tenants).where(eq(tenants.username, DEMO.username)).get();
  if (existing) {
    const app = db.select({ id: applications.id }).from(applications).where(eq(applications.domain, DEMO.domain)).get();
    return { created: false, tenantId: existing.id, appId: app?.id ?? 0 };
  }
  const passHash = await hashPassword(DEMO.password);
  return db.transaction((tx) => {
    const now = Date.now();
    const tenant = tx
      .insert(tenants)
      .values({
        username: DEMO.username,
        first: 'Demo',
        last: 'Sentra',
        email: 'demo@sentra.local',
        passHash,
        tenantName: 'PT Demo Sentra',
        billingExpiresAt: FAR_FUTURE,
        createdAt: now,
      })
      .returning({ id: tenants.id })
      .get();
    const app = tx
      .insert(applications)
      .values({
        tenantId: tenant.id,
        name: DEMO.appName,
        domain: DEMO.domain,
        description: 'Aplikasi demo: energi, SPBU, laundry dan lingkungan',
        createdAt: now,
      })
      .returning({ id: applications.id })
      .get();
    return { created: true, tenantId: tenant.id, appId: app.id };
  });
}
