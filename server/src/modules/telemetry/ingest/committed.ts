// Committed telemetry to its listeners (live cards, device data, rules). With NATS each message is stored by one
// gateway (its receiver on PostgreSQL, one of the writer queue group on SQLite): it publishes what it stored on
// `stored.<app>.<device>`, and every other gateway serves its own listeners from there, its latest-value cache kept
// current the same way. A listener hears whether a commit is this gateway's own (`local`) or another's. What was
// published while this gateway's NATS connection was down never arrives: once it is back, every latest value is read
// again from the store, and the `mended` listeners (cached card answers, live cards) are told to read afresh.
import type { Bus, BusSubscription } from '../../../platform/bus/types.js';
import type { Logger } from '../../../platform/log.js';
import type { CommittedTelemetry } from '../message.js';
import { noteLatest, type SeriesRegistry } from '../store/series.js';

/** `local`: this gateway stored it (else another gateway's commit heard over NATS) */
export type CommittedListener = (b: CommittedTelemetry, local: boolean) => void;

export interface CommittedFanOutOptions {
  log: Logger;
  series: Pick<SeriesRegistry, 'byId' | 'refreshLatest'>;
  /** share commits with the other gateways on this bus (scale-out over NATS) */
  share: Bus | null;
  /** this gateway's name on the bus */
  origin: string;
  /** the pipeline is closing: other gateways' commits are no longer heard */
  closing: () => boolean;
}

export function createCommittedFanOut(o: CommittedFanOutOptions) {
  const listeners = new Set<CommittedListener>();
  const mended = new Set<() => void>();

  function tell(b: CommittedTelemetry, local: boolean) {
    for (const fn of listeners) {
      try {
        fn(b, local);
      } catch (err) {
        o.log.error('telemetry subscribe listener failed', err);
      }
    }
  }

  const shared: BusSubscription | undefined = o.share?.subscribe<{ origin: string; batch: CommittedTelemetry }>(
    'stored.>',
    ({ data }) => {
      if (data.origin === o.origin || o.closing()) return;
      for (const p of data.batch.points) {
        const s = o.series.byId(p.seriesId);
        if (s) noteLatest(s, p);
      }
      if (listeners.size) tell(data.batch, false);
    },
  );

  o.share?.onConnection?.((up) => {
    if (!up || o.closing()) return;
    o.series.refreshLatest().then(
      (moved) => {
        if (moved) o.log.info(`${moved} latest value(s) read again: stored through other gateways while NATS was away`);
        for (const fn of mended) fn();
      },
      (err: unknown) => o.log.error('latest values not read again after the bus reconnected', err),
    );
  });

  return {
    /** a listener of every committed message (only what was stored); returns the unsubscribe */
    subscribe(listener: CommittedListener): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** this gateway's writer committed `batches` */
    committed(batches: CommittedTelemetry[]): void {
      if (listeners.size) for (const b of batches) tell(b, true);
      // scale-out: the other gateway processes' viewers (live cards, device data) hear what this one stored
      if (o.share)
        for (const b of batches) o.share.publish(`stored.${b.appId}.${b.deviceId}`, { origin: o.origin, batch: b });
    },
    /** hears that commits of other gateways may have been missed and the latest values were read again; returns the
     * unsubscribe */
    onMended(listener: () => void): () => void {
      mended.add(listener);
      return () => void mended.delete(listener);
    },
    close(): void {
      shared?.unsubscribe();
    },
  };
}
