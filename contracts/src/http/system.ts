// The gateway's own state as the console shows it: whether device data is being stored. While the database cannot
// take writes (a full disk, PostgreSQL unreachable), devices are slowed (their acknowledgements withheld) and nothing
// acknowledged is lost; the console says so on every screen until the writes succeed again.
import { z } from 'zod';
import { defineCall } from './define.js';

export const SystemStatus = z.object({
  /** `failing`: device data is held, not stored, until the database takes writes again */
  storage: z.enum(['ok', 'failing']),
  /** since when the storage has been failing (epoch ms); null while it is ok */
  since: z.number().int().nullable(),
});
export type SystemStatus = z.infer<typeof SystemStatus>;

export const SystemHealth = z.object({ status: z.literal('ok') });

export const systemContract = {
  health: defineCall({
    method: 'GET',
    path: '/service/web/system/health',
    summary:
      "Whether this gateway serves calls: a load balancer's health check (no session, no database, a few bytes). It says nothing of the database, which every gateway shares (the status call and the system channel do)",
    audience: 'public',
    input: z.object({}),
    output: SystemHealth,
  }),
  status: defineCall({
    method: 'GET',
    path: '/service/web/system/status',
    summary: 'Whether the gateway is storing device data now, or holding it while its database cannot take writes',
    audience: 'session',
    input: z.object({}),
    output: SystemStatus,
  }),
} as const;

/**
 * The socket.io channel of the gateway's state: `subscribe` with `{ channel: SYSTEM_LIVE.channel, params: {} }` (any
 * signed-in user); the server emits `SYSTEM_LIVE.event` with a SystemStatus whenever it changes.
 */
export const SYSTEM_LIVE = {
  channel: 'system',
  event: 'status',
} as const;
