// The broker's state on SQLite (the embedded default): the statements prepared once, a flush's changes run in order in
// one transaction on the gateway's connection, synchronously when the write lock is free (a flush of a few hundred
// changes takes well under a millisecond). While another connection holds it (the telemetry writer thread, for each
// batch) the flush is tried again without the event loop waiting for it (platform/db/sqlite-lock.ts), and the promise
// says when it is on disk.
import type Database from 'better-sqlite3';
import { lockTries } from '../../db/sqlite-lock.js';
import type {
  BrokerStateChange,
  BrokerStatePersistence,
  BrokerStateSnapshot,
  QueuedRow,
  RetainedRow,
  SessionRow,
} from './persistence.js';

export type SqliteDatabase = Database.Database;

export function sqliteBrokerState(db: SqliteDatabase): BrokerStatePersistence & { loadSync(): BrokerStateSnapshot } {
  const sql = {
    putRetained: db.prepare(
      'INSERT OR REPLACE INTO mqtt_retained (topic, payload, qos, properties, expires_at, holder, tenant) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    delRetained: db.prepare('DELETE FROM mqtt_retained WHERE topic = ?'),
    putSession: db.prepare(
      'INSERT OR REPLACE INTO mqtt_sessions (client_id, identity_key, subscriptions, expires_at) VALUES (?, ?, ?, ?)',
    ),
    delSession: db.prepare('DELETE FROM mqtt_sessions WHERE client_id = ?'),
    putQueued: db.prepare(
      'INSERT INTO mqtt_queued (client_id, topic, payload, qos, properties, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    delQueuedOf: db.prepare('DELETE FROM mqtt_queued WHERE client_id = ?'),
    delOldestQueued: db.prepare(
      'DELETE FROM mqtt_queued WHERE id IN (SELECT id FROM mqtt_queued WHERE client_id = ? ORDER BY id LIMIT ?)',
    ),
    delQueuedMessage: db.prepare(
      'DELETE FROM mqtt_queued WHERE id = (SELECT id FROM mqtt_queued WHERE client_id = ? AND topic = ? AND payload = ? ORDER BY id LIMIT 1)',
    ),
  };
  const apply = (c: BrokerStateChange) => {
    switch (c.op) {
      case 'putRetained': {
        const r = c.row;
        sql.putRetained.run(r.topic, r.payload, r.qos, r.properties, r.expiresAt, r.holder, r.tenant);
        return;
      }
      case 'delRetained':
        sql.delRetained.run(c.topic);
        return;
      case 'putSession':
        sql.putSession.run(c.row.clientId, c.row.identityKey, c.row.subscriptions, c.row.expiresAt);
        return;
      case 'endSession':
        sql.delSession.run(c.clientId);
        sql.delQueuedOf.run(c.clientId);
        return;
      case 'putQueued': {
        const r = c.row;
        sql.putQueued.run(r.clientId, r.topic, r.payload, r.qos, r.properties, r.expiresAt);
        return;
      }
      case 'dropOldest':
        sql.delOldestQueued.run(c.clientId, c.count);
        return;
      case 'clearQueued':
        sql.delQueuedOf.run(c.clientId);
        return;
      case 'unqueue':
        sql.delQueuedMessage.run(c.clientId, c.topic, c.payload);
        return;
    }
  };
  const writeAll = db.transaction((changes: readonly BrokerStateChange[]) => {
    for (const c of changes) apply(c);
  });
  const lock = lockTries(db);
  const loadSync = (queued = true): BrokerStateSnapshot => ({
    retained: db
      .prepare('SELECT topic, payload, qos, properties, expires_at AS expiresAt, holder, tenant FROM mqtt_retained')
      .all() as RetainedRow[],
    sessions: db
      .prepare(
        'SELECT client_id AS clientId, identity_key AS identityKey, subscriptions, expires_at AS expiresAt FROM mqtt_sessions',
      )
      .all() as SessionRow[],
    queued: queued
      ? (db
          .prepare(
            'SELECT client_id AS clientId, topic, payload, qos, properties, expires_at AS expiresAt FROM mqtt_queued ORDER BY id',
          )
          .all() as QueuedRow[])
      : [],
  });
  return {
    kind: 'sqlite',
    loadSync,
    load: async (queued) => loadSync(queued),
    loadSession: async (clientId) => {
      const session = db
        .prepare(
          'SELECT client_id AS clientId, identity_key AS identityKey, subscriptions, expires_at AS expiresAt FROM mqtt_sessions WHERE client_id = ?',
        )
        .get(clientId) as SessionRow | undefined;
      const queued = db
        .prepare(
          'SELECT client_id AS clientId, topic, payload, qos, properties, expires_at AS expiresAt FROM mqtt_queued WHERE client_id = ? ORDER BY id',
        )
        .all(clientId) as QueuedRow[];
      return { ...(session && { session }), queued };
    },
    // tried now, on the caller's turn (not in a later microtask): with the lock free, what a flush hands over is on
    // disk when it returns
    write(changes) {
      return lock.unblocked(() => writeAll.immediate(changes));
    },
  };
}
