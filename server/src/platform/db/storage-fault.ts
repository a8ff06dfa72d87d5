// Whether an error is the storage's fault (disk full, read-only, I/O error, locked, the file gone or unreadable) rather
// than the code's or the input's: the telemetry writer retries those without end, and HTTP answers them with a clean
// 503 (Result.STORAGE_UNAVAILABLE) instead of -99.

const CODES = /^SQLITE_(FULL|IOERR|READONLY|BUSY|LOCKED|CANTOPEN|NOMEM|PROTOCOL|CORRUPT|NOTADB)/;
const MESSAGES =
  /writer thread exited|database or disk is full|readonly database|disk I\/O error|database is locked|unable to open database|ENOSPC|EROFS/i;

export function isStorageFault(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (CODES.test(code) || code === 'ENOSPC' || code === 'EROFS' || code === 'EIO'))
    return true;
  const message = err instanceof Error ? err.message : String(err);
  return MESSAGES.test(message);
}
