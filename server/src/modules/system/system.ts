// The gateway's own state for the console: whether device data is being stored. The telemetry writer knows when its
// batches fail on storage (a full disk, PostgreSQL unreachable: it retries them, and devices are slowed meanwhile);
// this module turns that into the SystemStatus the console shows on every screen, answered by a call and pushed on
// the `system` channel when it changes. The flag is read every `everyMs` (a boolean of the writer's, not a query):
// the change reaches the console within that, without the writer knowing about browsers.
//
// Each gateway speaks for its own writer; with several on one database they fail and recover together.
import { SYSTEM_LIVE, systemContract, type SystemStatus } from '@sentra/contracts';
import { implement } from '../../platform/http/mount.js';
import type { Realtime } from '../../platform/realtime/types.js';

export const SYSTEM_ROOM = SYSTEM_LIVE.channel;
export const STATUS_EVERY_MS = 500;

export interface SystemStatusOptions {
  /** whether the storage is failing now (the telemetry writer's `storage_faulting`) */
  storageFailing(): boolean;
  now?: () => number;
  everyMs?: number;
}

export function createSystemStatus(o: SystemStatusOptions) {
  const now = o.now ?? Date.now;
  let current: SystemStatus = { storage: 'ok', since: null };
  let realtime: Realtime | undefined;
  /** reads the flag; on a change keeps the new status and pushes it */
  function check(): SystemStatus {
    const failing = o.storageFailing();
    if (failing !== (current.storage === 'failing')) {
      current = failing ? { storage: 'failing', since: now() } : { storage: 'ok', since: null };
      realtime?.emit(SYSTEM_ROOM, SYSTEM_LIVE.event, current);
    }
    return current;
  }
  const timer = setInterval(check, o.everyMs ?? STATUS_EVERY_MS);
  timer.unref();
  return {
    status: check,
    /** the `system` channel: any signed-in user may watch it (it says nothing of any tenant) */
    attachRealtime(r: Realtime): void {
      realtime = r;
      r.channel(SYSTEM_LIVE.channel, { join: () => SYSTEM_ROOM });
    },
    routes: () => implement(systemContract, { health: () => ({ status: 'ok' as const }), status: () => check() }),
    close(): void {
      clearInterval(timer);
    },
  };
}

export type SystemStatusService = ReturnType<typeof createSystemStatus>;
