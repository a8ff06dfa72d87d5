// The gateway's native helper (server/native, built by `npm install`'s postinstall): dup(2), so each MQTT broker thread
// can listen on a descriptor of its own of the one listening socket (fd.c), and the broker threads' socket reader
// (io.c, mqtt/native-reads.ts). Absent (no compiler when the packages were installed), the broker runs one thread and
// reads its sockets through Node.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CreateReader } from './mqtt/native-reads.js';

export interface NativeFd {
  dup(fd: number): number;
  /** the broker thread's socket reader (server/native/io.c, mqtt/native-reads.ts) */
  createReader: CreateReader;
}

let loaded: NativeFd | null | undefined;

/** the helper, found from the sources (server/src/platform) or the bundle (server/dist); null when it was not built */
export function nativeFd(): NativeFd | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++, dir = path.dirname(dir)) {
    const file = path.join(dir, 'native', 'build', 'Release', 'fd.node');
    if (!fs.existsSync(file)) continue;
    try {
      loaded = createRequire(import.meta.url)(file) as NativeFd;
    } catch {
      loaded = null;
    }
    break;
  }
  return loaded;
}
