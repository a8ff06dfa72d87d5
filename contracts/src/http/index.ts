// The route table: every documented call, once. Add a domain's contract here and the server mounts it.
import { authContract } from './auth.js';
import { appsContract } from './apps.js';
import type { CallDef } from './define.js';

export const contracts = {
  auth: authContract,
  apps: appsContract,
} as const;

export function allCalls(): CallDef[] {
  return Object.values(contracts).flatMap((c) => Object.values(c) as CallDef[]);
}

export { authContract, appsContract };
