// The demo of `npm start`: on first run, a demo tenant (far billing date) and its application, made through the
// domains that own them (auth's tenants, apps' applications), on either engine. Idempotent: a restart, or another
// gateway seeding at the same moment, finds them and makes nothing.
import type { AppStore } from '../../db.js';
import { hashPassword } from '../../platform/crypto.js';
import { createAuthStore } from '../auth/auth.store.js';
import { createAppsStore } from '../apps/apps.store.js';

export const DEMO = {
  username: 'demo',
  password: 'demo1234',
  appName: 'Demo Sentra',
  domain: 'demo',
} as const;

const FAR_FUTURE = Date.UTC(2099, 11, 31);

export async function seedDemo(store: AppStore): Promise<{ created: boolean; tenantId: number; appId: number }> {
  const auth = createAuthStore(store);
  const apps = createAppsStore(store);
  const found = async () => {
    const tenant = await auth.tenantByUsername(DEMO.username);
    if (!tenant) return undefined;
    // the demo's application is the one of its domain, if the demo tenant holds it
    const app = await apps.byDomain(DEMO.domain);
    return { created: false, tenantId: tenant.id, appId: app?.tenantId === tenant.id ? app.id : 0 };
  };
  const existing = await found();
  if (existing) return existing;
  const passHash = await hashPassword(DEMO.password);
  const made = await store.tx(async () => {
    const now = Date.now();
    const tenant = await auth.createTenant({
      username: DEMO.username,
      first: 'Demo',
      last: 'Sentra',
      email: 'demo@sentra.local',
      passHash,
      tenantName: 'PT Demo Sentra',
      billingExpiresAt: FAR_FUTURE,
      createdAt: now,
    });
    // taken: another gateway (or a second call) seeded it meanwhile
    if (!('id' in tenant)) return undefined;
    const app = await apps.create({
      tenantId: tenant.id,
      name: DEMO.appName,
      domain: DEMO.domain,
      description: 'Aplikasi demo: energi, SPBU, laundry dan lingkungan',
      createdAt: now,
    });
    // the demo's domain held by someone else's application: the tenant stays without one, as before
    return { created: true, tenantId: tenant.id, appId: app?.id ?? 0 };
  });
  if (made) return made;
  const seeded = await found();
  if (!seeded) throw new Error(`the demo tenant's e-mail is taken by another tenant than "${DEMO.username}"`);
  return seeded;
}
