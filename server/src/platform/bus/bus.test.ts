// Runs the bus contract against the in-process bus and against a real nats-server started for the run.
import { afterAll, beforeAll } from 'vitest';
import { createLogger } from '../log.js';
import { busContractSuite } from './bus.contract.js';
import { createBus } from './index.js';
import { hasNatsServer, startNatsServer, type NatsServer } from './testing/nats-server.js';

const log = createLogger('silent');

busContractSuite('memory', () => createBus({ BUS: 'memory', NATS_URL: '' }, log));

let nats: NatsServer | undefined;
beforeAll(async () => {
  if (hasNatsServer) nats = await startNatsServer();
});
afterAll(async () => {
  await nats?.stop();
});
busContractSuite('nats', () => createBus({ BUS: 'nats', NATS_URL: nats!.url }, log), { skip: !hasNatsServer });
