// What a broker thread (broker.worker.ts) is given and what it loads of aedes: its settings from the event loop, aedes'
// own modules as aedes resolves them (the thread replaces some of them before aedes loads: aedes-internals.test.ts
// fails when one changes shape), and the one aedes instance, set once the entry made it.
import { createRequire } from 'node:module';
import path from 'node:path';
import { workerData } from 'node:worker_threads';
import type AedesClass from 'aedes';
import type { PacketParser } from './fast-publish.js';

export const settings = workerData as {
  debug: boolean;
  maxOutboundBytes: number;
  nativeReads: boolean;
  fastPath: boolean;
  proxyProtocolFrom?: string[];
};

const requireHere = createRequire(import.meta.url);
export const aedesMain = requireHere.resolve('aedes');
export const requireInAedes = createRequire(aedesMain);

/** the mqtt-packet module instance aedes reads and writes through */
export const mqttPacket = requireInAedes('mqtt-packet') as {
  writeToStream: (
    packet: { cmd: string; messageId?: number },
    stream: { write(b: Buffer): boolean },
    opts?: unknown,
  ) => boolean;
  parser: (opt?: unknown) => PacketParser;
};
/** mqtt-packet's own writer (the thread's hook replaces the module's, thread-writer.ts) */
export const writePacket = mqttPacket.writeToStream;

/** the path of one of aedes' packet handlers (`lib/handlers/<name>.js`) */
export const handlerPath = (name: string) => path.join(path.dirname(aedesMain), 'lib', 'handlers', `${name}.js`);
/** aedes' own handler module, loaded */
export const aedesHandler = <H>(name: string) => requireInAedes(handlerPath(name)) as H;
/** one of aedes' handler modules replaced (before aedes' handlers index and aedes itself load: they take it then) */
export function replaceHandler(name: string, handler: unknown): void {
  const file = handlerPath(name);
  requireInAedes(file);
  requireInAedes.cache[file]!.exports = handler;
}

/** the thread's aedes (broker.worker.ts makes it, once its modules are in place) */
export let aedes: AedesClass;
export function setAedes(instance: AedesClass): void {
  aedes = instance;
}
