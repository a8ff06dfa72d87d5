// Access changes between gateways (access-changes.ts): a change made here is published; one heard from another gateway
// bumps the generation; a bus connection that comes back counts as a change of every kind (what was published
// meanwhile never arrives).
import { describe, expect, it } from 'vitest';
import type { Bus, BusMessage } from '../../platform/bus/types.js';
import { createAccessChanges, type AccessChange } from './access-changes.js';

function natsLike() {
  const published: Array<{ subject: string; data: unknown }> = [];
  let deliver: ((m: BusMessage<unknown>) => unknown) | undefined;
  let connection: ((up: boolean) => void) | undefined;
  const bus: Pick<Bus, 'kind' | 'publish' | 'subscribe' | 'onConnection'> = {
    kind: 'nats',
    publish: (subject, data) => void published.push({ subject, data }),
    subscribe: (_subject, handler) => {
      deliver = handler as (m: BusMessage<unknown>) => unknown;
      return { unsubscribe() {} };
    },
    onConnection: (listener) => void (connection = listener),
  };
  return {
    bus,
    published,
    hear: (data: unknown) => deliver!({ subject: 'access.changed', data }),
    connection: (up: boolean) => connection!(up),
  };
}

describe('access changes across gateways', () => {
  it("publishes its own changes, applies another gateway's, and drops everything when the bus connection comes back", () => {
    const b = natsLike();
    const changes = createAccessChanges({ bus: b.bus });
    const heard: AccessChange[] = [];
    changes.onChange((what) => heard.push(what));

    changes.changed('access');
    expect(b.published).toEqual([{ subject: 'access.changed', data: { origin: expect.any(String), what: 'access' } }]);
    // its own change coming back over the bus is not counted twice
    b.hear(b.published[0]!.data);
    b.hear({ origin: 'another', what: 'dashboards' });
    expect([changes.access, changes.dashboards]).toEqual([1, 1]);

    // the connection went: nothing yet (nothing is known to have changed); back: everything is read again
    b.connection(false);
    expect([changes.access, changes.dashboards]).toEqual([1, 1]);
    b.connection(true);
    expect([changes.access, changes.dashboards]).toEqual([2, 2]);
    expect(heard).toEqual(['access', 'dashboards', 'access', 'dashboards']);
    // nothing of it was published: the others lost nothing of this gateway's
    expect(b.published).toHaveLength(1);
  });
});
