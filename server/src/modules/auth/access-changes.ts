// Who a caller is and what they may open changes rarely (sign-out, password, user, role, credentials, dashboards) but
// is read on every call, so the authenticated path caches it: every write that can change a cached answer calls
// `changed`, and the caches drop what they hold before the next request is served. With BUS=nats the change is also
// published, so the other gateways drop theirs (as fast as the bus delivers it). A gateway whose NATS connection went
// and came back may have missed some: it drops everything then, as for a change of each kind (the caches read again;
// open live channels are checked again, so a session signed out meanwhile on another gateway loses them here too).
import type { Bus } from '../../platform/bus/types.js';
import { newOrigin } from '../../platform/bus/subjects.js';

/**
 * `access`: sessions, application accounts, roles and their menus, credentials pairs, applications.
 * `dashboards`: a dashboard's stored conf or its place in the tree (parents decide what a descendant role opens).
 */
export type AccessChange = 'access' | 'dashboards';

export interface AccessChanges {
  /** increases on every change of access data (here, or on another gateway) */
  readonly access: number;
  /** increases on every change of a dashboard (here, or on another gateway) */
  readonly dashboards: number;
  /** call after committing a write that can change what a cache holds; the caches miss from the next read on */
  changed(what: AccessChange): void;
  /** `listener` hears every change (here, or on another gateway); returns the unsubscribe */
  onChange(listener: (what: AccessChange) => void): () => void;
}

const SUBJECT = 'access.changed';

/** Generations of this process; `bus` (NATS only) carries the changes between gateways. */
export function createAccessChanges(
  opts: { bus?: Pick<Bus, 'kind' | 'publish' | 'subscribe' | 'onConnection'> } = {},
): AccessChanges {
  const generation = { access: 0, dashboards: 0 };
  const bus = opts.bus?.kind === 'nats' ? opts.bus : undefined;
  const origin = newOrigin();
  const listeners = new Set<(what: AccessChange) => void>();
  const bump = (what: AccessChange) => {
    generation[what]++;
    for (const fn of listeners) fn(what);
  };
  bus?.subscribe<{ origin: string; what: AccessChange }>(SUBJECT, ({ data }) => {
    if (data.origin !== origin && (data.what === 'access' || data.what === 'dashboards')) bump(data.what);
  });
  bus?.onConnection?.((up) => {
    if (!up) return;
    bump('access');
    bump('dashboards');
  });
  return {
    get access() {
      return generation.access;
    },
    get dashboards() {
      return generation.dashboards;
    },
    changed(what) {
      bump(what);
      bus?.publish(SUBJECT, { origin, what });
    },
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
