// Builders for the principals most integration tests need: a registered, signed-in tenant and its application.
import { appsContract, authContract } from '@sentra/contracts';
import { call } from './harness.js';

let seq = 0;
export const unique = (prefix: string) => `${prefix}${process.pid % 1000}${++seq}`;

export async function tenantSession(base: string, name = unique('tnt')) {
  const pass = 'rahasia123';
  const reg = await call(base, authContract.register, {
    username: name, first: 'Budi', last: 'Santoso', email: `${name}@contoh.id`, pass, passv: pass, tenant_name: `PT ${name}`,
  });
  if (reg.body.response_result !== 0) throw new Error(`register failed: ${JSON.stringify(reg.body)}`);
  const login = await call(base, authContract.tenantLogin, { input: name, pass });
  return { username: name, pass, tenant: { id: login.body.id as number, token: login.body.token as string } };
}

export async function tenantWithApp(base: string) {
  const t = await tenantSession(base);
  const domain = unique('app');
  const add = await call(base, appsContract.add, { name: `Aplikasi ${domain}`, domain }, { tenant: t.tenant });
  if (add.body.response_result !== 0) throw new Error(`add app failed: ${JSON.stringify(add.body)}`);
  return { ...t, domain, appId: add.body.data.id as number };
}
