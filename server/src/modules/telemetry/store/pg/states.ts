// Device states on PostgreSQL, inside the batch's transaction: the same rules as SQLite (applyStateReports in
// states.store.ts, run over a view of the rows), with a few statements per batch instead of a few per report. The
// batch's devices are locked (advisory, in id order: two gateways of a scale-out never interleave one device's
// reports), their current rows and key counts loaded, the reports applied in memory in batch order, and what they left
// written back: the current rows upserted, the periods they opened upserted, the periods they extended updated.
import type pg from 'pg';
import { compareStateKeys, STATE_RANGE_MAX } from '@sentra/contracts';
import {
  applyStateReports,
  MAX_STATE_KEYS_PER_DEVICE,
  stateRowOf,
  type StatesStore,
  type StateChange,
  type StateRecord,
  type StatesView,
} from '../../../states/states.store.js';
import type { WriteBatch, WriteResult } from '../write-batch.js';
import { pgText, texts } from './arrays.js';
import { inTransaction } from './transaction.js';

/** the first key of the two-key advisory locks a states writer takes per device (two int4 keys never meet one int8) */
export const STATES_LOCK = 0x5e47c;

const SEP = '\u0000'; // never in a key: PostgreSQL text cannot hold it

interface Current extends StateRecord {
  deviceId: number;
  appId: number;
}

interface Period {
  deviceId: number;
  key: string;
  initialTs: number;
  value: string | null;
  latestTs: number;
  /** opened (upsert: value and latest_ts) or only extended (update of latest_ts, when the row exists) */
  opened: boolean;
}

/** applies the batch's state reports; fills `out.appliedStates` and `out.refusedStates` as SQLite's store does */
export async function applyBatchStates(
  client: pg.PoolClient,
  reported: WriteBatch['states'],
  out: WriteResult,
  maxKeys = MAX_STATE_KEYS_PER_DEVICE,
): Promise<void> {
  if (reported.length === 0) return;
  // keys as stored (pgText): two spellings of one key would be one row written twice by one upsert
  const states = reported.some((s) => s.changes.some((c) => c.key.includes('\0')))
    ? reported.map((s) => ({ ...s, changes: s.changes.map((c) => ({ ...c, key: pgText(c.key) })) }))
    : reported;
  const devices = [...new Set(states.map((s) => s.deviceId))].sort((a, b) => a - b);
  await client.query({
    name: 'tele_states_lock',
    text: `select pg_advisory_xact_lock(${STATES_LOCK}, (d % 2147483647)::int) from unnest($1::bigint[]) with ordinality u(d, i) order by i`,
    values: [devices],
  });
  const asked = new Map<string, [number, string]>();
  for (const s of states) for (const c of s.changes) asked.set(s.deviceId + SEP + c.key, [s.deviceId, c.key]);
  const pairs = [...asked.values()];
  const { rows } = await client.query<[number, string, number, string | null, number, number]>({
    name: 'tele_states_current',
    text: `select s.device_id, s.key, s.app_id, s.value, s.initial_ts, s.latest_ts
           from unnest($1::bigint[], $2::text[]) k(device_id, key)
           join device_states s on s.device_id = k.device_id and s.key = k.key`,
    values: [pairs.map((p) => p[0]), texts(pairs.map((p) => p[1]))],
    rowMode: 'array',
  });
  const current = new Map<string, Current>();
  for (const [deviceId, key, appId, value, initial_ts, latest_ts] of rows)
    current.set(deviceId + SEP + key, { deviceId, appId, key, value, initial_ts, latest_ts });
  // key counts only for devices reporting a key they do not have (applyStateReports asks only then)
  const counted = [...new Set(pairs.filter((p) => !current.has(p[0] + SEP + p[1])).map((p) => p[0]))];
  const counts = new Map<number, number>();
  if (counted.length) {
    const r = await client.query<[number, number]>({
      name: 'tele_states_count',
      text: 'select device_id, count(*) from device_states where device_id = any($1::bigint[]) group by device_id',
      values: [counted],
      rowMode: 'array',
    });
    for (const [deviceId, n] of r.rows) counts.set(deviceId, n);
  }

  const touched = new Map<string, Current>();
  const periods = new Map<string, Period>();
  const open = (deviceId: number, c: StateChange) =>
    periods.set(deviceId + SEP + c.key + SEP + c.ts, {
      deviceId,
      key: c.key,
      initialTs: c.ts,
      value: c.value,
      latestTs: c.ts,
      opened: true,
    });
  const view: StatesView = {
    current: (deviceId, key) => current.get(deviceId + SEP + key),
    keyCount: (deviceId) => counts.get(deviceId) ?? 0,
    add(appId, deviceId, c) {
      const row = { deviceId, appId, key: c.key, value: c.value, initial_ts: c.ts, latest_ts: c.ts };
      current.set(deviceId + SEP + c.key, row);
      touched.set(deviceId + SEP + c.key, row);
      counts.set(deviceId, (counts.get(deviceId) ?? 0) + 1);
      open(deviceId, c);
    },
    extend(deviceId, c, cur) {
      cur.latest_ts = c.ts;
      touched.set(deviceId + SEP + c.key, cur as Current);
      const id = deviceId + SEP + c.key + SEP + cur.initial_ts;
      const p = periods.get(id);
      if (p) p.latestTs = c.ts;
      else
        periods.set(id, {
          deviceId,
          key: c.key,
          initialTs: cur.initial_ts,
          value: null,
          latestTs: c.ts,
          opened: false,
        });
    },
    change(deviceId, c) {
      const cur = current.get(deviceId + SEP + c.key)!;
      cur.value = c.value;
      cur.initial_ts = c.ts;
      cur.latest_ts = c.ts;
      touched.set(deviceId + SEP + c.key, cur);
      open(deviceId, c);
    },
  };
  for (const s of states) {
    const refused: StateChange[] = [];
    const changes = applyStateReports(view, s.appId, s.deviceId, s.changes, maxKeys, refused);
    if (changes.length) out.appliedStates.push({ msg: s.msg, changes });
    if (refused.length) out.refusedStates.push({ msg: s.msg, count: refused.length });
  }
  if (touched.size === 0) return;

  const cur = [...touched.values()];
  await client.query({
    name: 'tele_states_upsert',
    text: `insert into device_states (device_id, app_id, key, value, initial_ts, latest_ts)
           select * from unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::bigint[], $6::bigint[])
           on conflict (device_id, key) do update
           set value = excluded.value, initial_ts = excluded.initial_ts, latest_ts = excluded.latest_ts`,
    values: [
      cur.map((r) => r.deviceId),
      cur.map((r) => r.appId),
      texts(cur.map((r) => r.key)),
      texts(cur.map((r) => r.value)),
      cur.map((r) => r.initial_ts),
      cur.map((r) => r.latest_ts),
    ],
  });
  const opened = [...periods.values()].filter((p) => p.opened);
  if (opened.length)
    await client.query({
      name: 'tele_states_open',
      text: `insert into device_state_history (device_id, key, initial_ts, value, latest_ts)
             select * from unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::bigint[])
             on conflict (device_id, key, initial_ts) do update set value = excluded.value, latest_ts = excluded.latest_ts`,
      values: [
        opened.map((p) => p.deviceId),
        texts(opened.map((p) => p.key)),
        opened.map((p) => p.initialTs),
        texts(opened.map((p) => p.value)),
        opened.map((p) => p.latestTs),
      ],
    });
  const extended = [...periods.values()].filter((p) => !p.opened);
  if (extended.length)
    await client.query({
      name: 'tele_states_extend',
      text: `update device_state_history h set latest_ts = u.latest_ts
             from unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[]) u(device_id, key, initial_ts, latest_ts)
             where h.device_id = u.device_id and h.key = u.key and h.initial_ts = u.initial_ts`,
      values: [
        extended.map((p) => p.deviceId),
        texts(extended.map((p) => p.key)),
        extended.map((p) => p.initialTs),
        extended.map((p) => p.latestTs),
      ],
    });
}

const STATE_COLS = 'key, value, initial_ts, latest_ts';

/**
 * Device states read on PostgreSQL (states.store.ts' StatesStore): the same answers as SQLite's store, a device of
 * another application answering nothing. Written only by the writer (applyBatchStates); `remove` takes the device's
 * states lock so it never interleaves with a batch applying the same device's reports.
 */
export function pgStatesStore(pool: pg.Pool): StatesStore {
  const owns = async (appId: number, deviceId: number) =>
    (
      await pool.query({
        name: 'states_owns_device',
        text: 'select 1 from device_states where app_id = $1 and device_id = $2 limit 1',
        values: [appId, deviceId],
      })
    ).rowCount! > 0;
  return {
    async list(appId, deviceId) {
      const { rows } = await pool.query<StateRecord>({
        name: 'states_list',
        text: `select ${STATE_COLS} from device_states where app_id = $1 and device_id = $2`,
        values: [appId, deviceId],
      });
      return rows.sort((a, b) => compareStateKeys(a.key, b.key)).map(stateRowOf);
    },
    async newest(appId, deviceId, key, n) {
      if (!(await owns(appId, deviceId))) return [];
      const { rows } = await pool.query<StateRecord>({
        name: 'states_newest',
        text: `select ${STATE_COLS} from device_state_history where device_id = $1 and key = $2 order by initial_ts desc limit $3`,
        values: [deviceId, pgText(key), Math.max(1, Math.min(n, STATE_RANGE_MAX))],
      });
      return rows.map(stateRowOf);
    },
    async periodic(appId, deviceId, key, start, end, limit = STATE_RANGE_MAX) {
      if (!(await owns(appId, deviceId))) return { rows: [], truncated: false };
      const k = pgText(key);
      const { rows } = await pool.query<StateRecord>({
        name: 'states_range',
        text: `select ${STATE_COLS} from device_state_history where device_id = $1 and key = $2 and initial_ts >= $3 and initial_ts <= $4 order by initial_ts desc limit $5`,
        values: [deviceId, k, start, end, limit + 1],
      });
      // the period that began before `start` and was still going at `start` overlaps too; it is the oldest of all
      const { rows: earlier } = await pool.query<StateRecord>({
        name: 'states_before',
        text: `select ${STATE_COLS} from device_state_history where device_id = $1 and key = $2 and initial_ts < $3 order by initial_ts desc limit 1`,
        values: [deviceId, k, start],
      });
      if (earlier[0] && earlier[0].latest_ts >= start) rows.push(earlier[0]);
      return { rows: rows.slice(0, limit).map(stateRowOf), truncated: rows.length > limit };
    },
    async remove(appId, deviceId, key) {
      const k = pgText(key);
      return inTransaction(pool, async (client) => {
        await client.query('select pg_advisory_xact_lock($1, ($2::bigint % 2147483647)::int)', [STATES_LOCK, deviceId]);
        const gone = await client.query('delete from device_states where app_id = $1 and device_id = $2 and key = $3', [
          appId,
          deviceId,
          k,
        ]);
        if (!gone.rowCount) return false;
        await client.query('delete from device_state_history where device_id = $1 and key = $2', [deviceId, k]);
        return true;
      });
    },
  };
}
