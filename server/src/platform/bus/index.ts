// Picks the bus the configuration asks for: in-process for one gateway, NATS when several share the work.
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { createMemoryBus } from './memory.js';
import { createNatsBus } from './nats.js';
import type { Bus } from './types.js';

export * from './types.js';

/** `deployment`: the database's deployment (platform/db/deployment.ts); with NATS the bus proves it shares it */
export async function createBus(
  config: Pick<Config, 'BUS' | 'NATS_URL'> & Partial<Pick<Config, 'NATS_CONNECT_TIMEOUT_MS'>>,
  log: Logger,
  deployment?: { id: string; what: string },
): Promise<Bus> {
  return config.BUS === 'nats'
    ? createNatsBus({ url: config.NATS_URL, connectWaitMs: config.NATS_CONNECT_TIMEOUT_MS, deployment }, log)
    : createMemoryBus(log);
}
