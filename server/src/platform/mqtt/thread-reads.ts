// When a broker thread reads its connections. Connections are read while three things allow it (read-gate.ts): the
// event loop's global pause (its writer's queue past half its bound) and this thread's own bound on what it handed over
// and the event loop has not taken (handover-bound.ts), both kept by the thread-wide gate; and the connection's own
// held acknowledgements (held-acks.ts, thread-acks.ts).
import type { Client } from 'aedes';
import { HandoverBound } from './handover-bound.js';
import { ReadGate } from './read-gate.js';
import { settings } from './thread-aedes.js';
import { log } from './thread-link.js';
import { native } from './thread-native.js';

let readPaused = false;
export const handedOver = new HandoverBound(gateMoved);
const readOpen = () => !readPaused && !handedOver.isBehind;
export const gate = new ReadGate<Client>(
  readOpen,
  native &&
    ((client) => {
      if (native!.settled(client) && settings.debug) log('debug', `MQTT client ${client.id} read by the native reader`);
    }),
  native && ((client) => native!.reads(client)),
);
/** the thread-wide gate opened or closed */
function gateMoved() {
  const open = readOpen();
  native?.reading(open);
  if (open) gate.readWaiting();
}

/** the event loop's global pause (its `pause` command) */
export function setReadPaused(paused: boolean) {
  if (paused === readPaused) return;
  readPaused = paused;
  gateMoved();
}
