// Whether an error is the storage's fault (disk full, read-only, I/O error, locked, the file gone or unreadable; on
// PostgreSQL the server unreachable, shutting down, out of disk or read-only) rather than the code's or the input's:
// the telemetry writer retries those without end, and HTTP answers them with a clean 503
// (Result.STORAGE_UNAVAILABLE) instead of -99.

const CODES = /^SQLITE_(FULL|IOERR|READONLY|BUSY|LOCKED|CANTOPEN|NOMEM|PROTOCOL|CORRUPT|NOTADB)/;
/**
 * PostgreSQL's SQLSTATEs of the kind: connection exceptions (08), insufficient resources (53: disk full, out of memory,
 * too many connections), system errors (58: I/O), the server shutting down or starting (57P01-57P03), a read-only
 * transaction (25006: a standby after a failover)
 */
const PG_CODES = /^(08|53|58)[0-9A-Z]{3}$|^57P0[1-3]$|^25006$/;
/** the socket's errors reaching PostgreSQL */
const NET_CODES = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH)$/;
const MESSAGES =
  /writer thread exited|database or disk is full|readonly database|disk I\/O error|database is locked|unable to open database|ENOSPC|EROFS|Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable/i;

export function isStorageFault(err: unknown): boolean {
  // the store's queries fail with drizzle's error, the driver's as its cause
  for (let e = err, depth = 0; e && depth < 5; depth++, e = (e as { cause?: unknown }).cause)
    if (isFaultItself(e)) return true;
  return false;
}

function isFaultItself(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (
    typeof code === 'string' &&
    (CODES.test(code) ||
      PG_CODES.test(code) ||
      NET_CODES.test(code) ||
      code === 'ENOSPC' ||
      code === 'EROFS' ||
      code === 'EIO')
  )
    return true;
  const message = err instanceof Error ? err.message : String(err);
  return MESSAGES.test(message);
}

/**
 * `read` until it answers: a storage fault is waited out, tried again every `retryMs` (the caller's work waits with
 * it); another error, or a fault once `stopping()`, is thrown. `waiting` is told once, at the first fault.
 */
export async function waitOutStorageFaults<T>(
  read: () => Promise<T>,
  o: { retryMs: number; stopping: () => boolean; waiting?: (err: unknown) => void },
): Promise<T> {
  for (let faults = 0; ; faults++) {
    try {
      return await read();
    } catch (err) {
      if (o.stopping() || !isStorageFault(err)) throw err;
      if (faults === 0) o.waiting?.(err);
      await new Promise((resolve) => setTimeout(resolve, o.retryMs));
    }
  }
}
