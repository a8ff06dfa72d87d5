// Telemetry retention as a job: every hour (the first run a minute after the start) the points and rollups of the
// UTC days older than the kept number of days are dropped through the telemetry store (whole partitions on
// PostgreSQL, rows series by series on SQLite). Every gateway runs it; dropping what another already dropped finds
// nothing. Off (everything kept) unless TELEMETRY_RETENTION_DAYS is set: deleting a customer's data is theirs to choose.
import type { Logger } from '../../../platform/log.js';
import { DAY_MS, MAINTAIN_EVERY_MS, type RetentionResult } from './telemetry-store.js';

export const FIRST_RETENTION_AFTER_MS = 60_000;

export interface RetentionJobOptions {
  days: number;
  dropOlderThan(before: number): Promise<RetentionResult>;
  now: () => number;
  log: Logger;
  everyMs?: number;
  firstAfterMs?: number;
}

export function startRetentionJob(o: RetentionJobOptions): { stop(): void; runs(): number } {
  let runs = 0;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const r = await o.dropOlderThan(o.now() - o.days * DAY_MS);
      if (r.droppedPartitions.length || r.deletedRows)
        o.log.info(
          `telemetry retention (${o.days} days): older than ${new Date(r.cutoff).toISOString()} dropped` +
            `${r.droppedPartitions.length ? `, partitions ${r.droppedPartitions.join(', ')}` : ''}` +
            `${r.deletedRows ? `, ${r.deletedRows} rows` : ''}`,
        );
    } catch (err) {
      o.log.warn(`telemetry retention failed, tried again at its next run: ${err}`);
    } finally {
      running = false;
      runs++;
    }
  };
  const first = setTimeout(() => {
    void run();
    timer = setInterval(() => void run(), o.everyMs ?? MAINTAIN_EVERY_MS);
    timer.unref();
  }, o.firstAfterMs ?? FIRST_RETENTION_AFTER_MS);
  first.unref();
  return {
    stop() {
      clearTimeout(first);
      if (timer) clearInterval(timer);
    },
    runs: () => runs,
  };
}
