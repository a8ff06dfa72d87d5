// The native reader of a broker thread: TCP connections, once signed in, are read by it when it was built and not
// turned off, and the fast path is on (native-reads.ts); undefined otherwise.
import type { Client } from 'aedes';
import { nativeFd } from '../native-fd.js';
import { NativeReads } from './native-reads.js';
import { settings } from './thread-aedes.js';

const createReader = settings.fastPath && settings.nativeReads ? nativeFd()?.createReader : undefined;
export const native = createReader ? new NativeReads<Client>(createReader) : undefined;
