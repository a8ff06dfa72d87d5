// A statement refused by a unique index, told apart from other failures on both engines: drizzle wraps the driver's
// error (its `cause`); better-sqlite3 says SQLITE_CONSTRAINT_UNIQUE (or _PRIMARYKEY), PostgreSQL 23505.
export function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
      return true;
    e = e.cause as typeof e;
  }
  return false;
}
