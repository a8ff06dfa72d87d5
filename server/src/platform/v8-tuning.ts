// Process-wide V8 settings the gateway's hot paths depend on (docs/decisions/telemetry-storage.md, "Memory"). Flags
// are global to the process (every worker thread's isolate too) and read at run time by the collector, so setting them
// before the first message is handled is enough.
import v8 from 'node:v8';

let tuned = false;

/**
 * The old generation may grow to twice what the last mark-compact left before the next one starts. V8's own factor
 * fell to ~1.1 on this server (a 62 MB live heap, collected again at 68–76 MB): a mark-compact every 3–4 s under load,
 * each with ~300 ms of concurrent marking on a 2-core machine's second core, and the publish → stored tail with it.
 * At twice: two mark-compacts in a 30 s benchmark instead of eight; memory under load at most twice the live heap.
 */
const HEAP_GROWING_PERCENT = 100;

/**
 * Allocation-site pretenuring off. V8 allocates an object literal's later objects straight in the old generation once
 * nearly all of its objects survived a young collection. One burst does that to the ingest path (a backlog while the
 * writer is briefly behind, the fleet connecting): every message's objects are then tenured for the rest of the
 * process, die there, and bring back mark-compact collections and their pauses every few seconds. Measured at 22,000
 * messages/s: 83 → 35 MB promoted in 8 s, scavenge pauses halved, no mark-compact.
 */
export function tuneV8(): void {
  if (tuned) return;
  tuned = true;
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
