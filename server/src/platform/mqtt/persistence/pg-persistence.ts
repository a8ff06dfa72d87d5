// The broker's state on PostgreSQL: a flush's changes in one transaction on one pooled connection, as a handful of
// set-wise statements whatever their number (one multi-row upsert or delete per table and kind, arrays passed as
// parameters), not a round trip per change. Changes to different topics and sessions are independent, so a flush's
// changes are reduced to their net effect per topic and per session first:
// - a retained topic or a session: the last put or delete wins;
// - a session's queue: messages are only appended at its end and dropped from its front (`dropOldest`), so "append
//   them all, then drop the n oldest" leaves the rows the changes in their order leave; a clear (the session ended,
//   or its queue written again) forgets what came before it for that session.
// Removing one message from the middle (`unqueue`, a command past its time-out: rare) does not commute with that; it
// closes the batch gathered so far, runs alone, and a new batch starts after it.
import type pg from 'pg';
import { chunks } from '../../db/chunks.js';
import type {
  BrokerStateChange,
  BrokerStatePersistence,
  BrokerStateSnapshot,
  QueuedRow,
  RetainedRow,
  SessionRow,
  StoredSession,
} from './persistence.js';

/** rows per statement at most: a flush after an outage can carry many; payloads travel in the parameters */
const CHUNK = 1000;

class Batch {
  retained = new Map<string, RetainedRow | null>();
  sessions = new Map<string, SessionRow | null>();
  clearQueued = new Set<string>();
  appended = new Map<string, QueuedRow[]>();
  drop = new Map<string, number>();
  empty = true;

  add(c: Exclude<BrokerStateChange, { op: 'unqueue' }>) {
    this.empty = false;
    switch (c.op) {
      case 'putRetained':
        this.retained.set(c.row.topic, c.row);
        return;
      case 'delRetained':
        this.retained.set(c.topic, null);
        return;
      case 'putSession':
        this.sessions.set(c.row.clientId, c.row);
        return;
      case 'endSession':
        this.sessions.set(c.clientId, null);
        this.clear(c.clientId);
        return;
      case 'clearQueued':
        this.clear(c.clientId);
        return;
      case 'putQueued': {
        const rows = this.appended.get(c.row.clientId);
        if (rows) rows.push(c.row);
        else this.appended.set(c.row.clientId, [c.row]);
        return;
      }
      case 'dropOldest':
        this.drop.set(c.clientId, (this.drop.get(c.clientId) ?? 0) + c.count);
        return;
    }
  }

  private clear(clientId: string) {
    this.clearQueued.add(clientId);
    this.appended.delete(clientId);
    this.drop.delete(clientId);
  }

  async run(client: pg.PoolClient) {
    const q = (text: string, values: unknown[]) => client.query(text, values);
    if (this.clearQueued.size > 0)
      await q('DELETE FROM mqtt_queued WHERE client_id = ANY($1::text[])', [[...this.clearQueued]]);
    const sessions = [...this.sessions.entries()];
    const ended = sessions.filter(([, r]) => r === null).map(([id]) => id);
    if (ended.length > 0) await q('DELETE FROM mqtt_sessions WHERE client_id = ANY($1::text[])', [ended]);
    const kept = sessions.flatMap(([, r]) => (r ? [r] : []));
    for (const rows of chunks(kept, CHUNK))
      await q(
        `INSERT INTO mqtt_sessions (client_id, identity_key, subscriptions, expires_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
         ON CONFLICT (client_id) DO UPDATE SET identity_key = excluded.identity_key,
           subscriptions = excluded.subscriptions, expires_at = excluded.expires_at`,
        [
          rows.map((r) => r.clientId),
          rows.map((r) => r.identityKey),
          rows.map((r) => r.subscriptions),
          rows.map((r) => r.expiresAt),
        ],
      );
    // in their order: a session's queue is read back by id
    for (const rows of chunks([...this.appended.values()].flat(), CHUNK))
      await q(
        `INSERT INTO mqtt_queued (client_id, topic, payload, qos, properties, expires_at)
         SELECT c, t, p, q, pr, e
         FROM unnest($1::text[], $2::text[], $3::bytea[], $4::bigint[], $5::text[], $6::bigint[])
           WITH ORDINALITY AS u(c, t, p, q, pr, e, n)
         ORDER BY n`,
        [
          rows.map((r) => r.clientId),
          rows.map((r) => r.topic),
          rows.map((r) => r.payload),
          rows.map((r) => r.qos),
          rows.map((r) => r.properties),
          rows.map((r) => r.expiresAt),
        ],
      );
    for (const drops of chunks([...this.drop.entries()], CHUNK))
      await q(
        `DELETE FROM mqtt_queued WHERE id IN (
           SELECT o.id FROM unnest($1::text[], $2::int[]) AS d(c, n)
           CROSS JOIN LATERAL (SELECT id FROM mqtt_queued WHERE client_id = d.c ORDER BY id LIMIT d.n) o)`,
        [drops.map(([c]) => c), drops.map(([, n]) => n)],
      );
    const retained = [...this.retained.entries()];
    const gone = retained.filter(([, r]) => r === null).map(([t]) => t);
    for (const topics of chunks(gone, CHUNK))
      await q('DELETE FROM mqtt_retained WHERE topic = ANY($1::text[])', [topics]);
    for (const rows of chunks(
      retained.flatMap(([, r]) => (r ? [r] : [])),
      CHUNK,
    ))
      await q(
        `INSERT INTO mqtt_retained (topic, payload, qos, properties, expires_at, holder, tenant)
         SELECT * FROM unnest($1::text[], $2::bytea[], $3::bigint[], $4::text[], $5::bigint[], $6::text[], $7::text[])
         ON CONFLICT (topic) DO UPDATE SET payload = excluded.payload, qos = excluded.qos,
           properties = excluded.properties, expires_at = excluded.expires_at, holder = excluded.holder,
           tenant = excluded.tenant`,
        [
          rows.map((r) => r.topic),
          rows.map((r) => r.payload),
          rows.map((r) => r.qos),
          rows.map((r) => r.properties),
          rows.map((r) => r.expiresAt),
          rows.map((r) => r.holder),
          rows.map((r) => r.tenant),
        ],
      );
  }
}

const num = (v: unknown) => (v === null ? null : Number(v));

export function pgBrokerState(pool: pg.Pool): BrokerStatePersistence {
  return {
    kind: 'postgres',
    async load(withQueued = true): Promise<BrokerStateSnapshot> {
      const [retained, sessions, queued] = await Promise.all([
        pool.query(
          'SELECT topic, payload, qos, properties, expires_at AS "expiresAt", holder, tenant FROM mqtt_retained',
        ),
        pool.query(
          'SELECT client_id AS "clientId", identity_key AS "identityKey", subscriptions, expires_at AS "expiresAt" FROM mqtt_sessions',
        ),
        withQueued
          ? pool.query(
              'SELECT client_id AS "clientId", topic, payload, qos, properties, expires_at AS "expiresAt" FROM mqtt_queued ORDER BY id',
            )
          : { rows: [] },
      ]);
      return {
        retained: (retained.rows as RetainedRow[]).map((r) => ({
          ...r,
          qos: Number(r.qos),
          expiresAt: num(r.expiresAt),
        })),
        sessions: (sessions.rows as SessionRow[]).map((r) => ({ ...r, expiresAt: Number(r.expiresAt) })),
        queued: (queued.rows as QueuedRow[]).map((r) => ({ ...r, qos: Number(r.qos), expiresAt: num(r.expiresAt) })),
      };
    },
    async loadSession(clientId): Promise<StoredSession> {
      const [session, queued] = await Promise.all([
        pool.query(
          'SELECT client_id AS "clientId", identity_key AS "identityKey", subscriptions, expires_at AS "expiresAt" FROM mqtt_sessions WHERE client_id = $1',
          [clientId],
        ),
        pool.query(
          'SELECT client_id AS "clientId", topic, payload, qos, properties, expires_at AS "expiresAt" FROM mqtt_queued WHERE client_id = $1 ORDER BY id',
          [clientId],
        ),
      ]);
      const s = session.rows[0] as SessionRow | undefined;
      return {
        ...(s && { session: { ...s, expiresAt: Number(s.expiresAt) } }),
        queued: (queued.rows as QueuedRow[]).map((r) => ({ ...r, qos: Number(r.qos), expiresAt: num(r.expiresAt) })),
      };
    },
    async write(changes) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        let batch = new Batch();
        for (const c of changes) {
          if (c.op !== 'unqueue') {
            batch.add(c);
            continue;
          }
          if (!batch.empty) await batch.run(client);
          batch = new Batch();
          await client.query(
            `DELETE FROM mqtt_queued WHERE id = (SELECT id FROM mqtt_queued
               WHERE client_id = $1 AND topic = $2 AND payload = $3 ORDER BY id LIMIT 1)`,
            [c.clientId, c.topic, c.payload],
          );
        }
        if (!batch.empty) await batch.run(client);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        throw err;
      } finally {
        // a connection that could not even roll back (its server went away) is not handed out again
        client.release(broken);
      }
    },
  };
}
