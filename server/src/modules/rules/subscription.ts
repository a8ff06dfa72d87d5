// Subscription ending (category 501): a tenant's billing date (tenants.billing_expires_at) read once at start; a timer
// (no polling) publishes `dev.<app>.0.subscription-ending` for each of the tenant's applications when the notice
// period before that date begins (value: whole days left). docs/decisions/rules.md "Subscription ending".
import type { Logger } from '../../platform/log.js';

export const SUBSCRIPTION_NOTICE_MS = 7 * 86_400_000;
/** setTimeout's longest delay (~24.8 days): farther dates are re-armed */
const MAX_DELAY_MS = 2_147_483_647;

export interface TenantBilling {
  tenantId: number;
  expiresAt: number;
  appIds: number[];
}

export function createSubscriptionWatch({
  tenants,
  publish,
  now = Date.now,
  noticeMs = SUBSCRIPTION_NOTICE_MS,
  log,
}: {
  tenants: () => TenantBilling[] | Promise<TenantBilling[]>;
  publish: (appId: number, daysLeft: number) => void;
  now?: () => number;
  noticeMs?: number;
  log?: Pick<Logger, 'error'>;
}) {
  let list: TenantBilling[] = [];
  let closed = false;
  const done = new Set<number>();
  let timer: NodeJS.Timeout | undefined;

  function check() {
    timer = undefined;
    const t = now();
    let next = Infinity;
    for (const b of list) {
      if (done.has(b.tenantId) || b.expiresAt <= t - noticeMs) continue;
      const from = b.expiresAt - noticeMs;
      if (t >= from) {
        done.add(b.tenantId);
        const days = Math.max(0, Math.ceil((b.expiresAt - t) / 86_400_000));
        for (const appId of b.appIds) publish(appId, days);
      } else next = Math.min(next, from);
    }
    if (next !== Infinity) {
      timer = setTimeout(check, Math.min(MAX_DELAY_MS, next - t));
      timer.unref?.();
    }
  }

  return {
    start() {
      const read = tenants();
      if (!(read instanceof Promise)) {
        list = read;
        return check();
      }
      read.then(
        (l) => {
          if (closed) return;
          list = l;
          check();
        },
        (err) => log?.error('subscription notices: the billing dates not read', err),
      );
    },
    close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
