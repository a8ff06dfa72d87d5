// LoRa network servers of an application: list, get, add, edit, remove (refused while a device uses the server).
import { and, asc, count, eq, or, sql, type AnyColumn } from 'drizzle-orm';
import { T, type LoraServer } from '@sentra/contracts';
import type { Db } from '../../db.js';
import { conflict, notFound } from '../../platform/http/errors.js';
import { devices } from '../devices/devices.table.js';
import { loraServers } from './lora.table.js';

type Row = typeof loraServers.$inferSelect;
type Fields = { mac: string; name: string; server: string; application_uuid?: string | null };

const present = (r: Row): LoraServer => ({
  id: r.id,
  mac: r.mac,
  name: r.name,
  server: r.server,
  application_uuid: r.applicationUuid ?? null,
  created_at: r.createdAt,
});
// an edit that does not name the application UUID keeps the one recorded
const columns = ({ mac, name, server, application_uuid }: Fields) => ({
  mac,
  name,
  server,
  ...(application_uuid !== undefined && { applicationUuid: application_uuid }),
});
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
// drizzle's like() has no ESCAPE clause: wildcards typed by the user must stay literal
const like = (column: AnyColumn, pattern: string) => sql`${column} like ${pattern} escape '\\'`;

export function createLoraService(db: Db, opts: { now?: () => number } = {}) {
  const now = opts.now ?? Date.now;

  function rowOf(appId: number, id: number): Row {
    const row = db
      .select()
      .from(loraServers)
      .where(and(eq(loraServers.appId, appId), eq(loraServers.id, id)))
      .get();
    if (!row) throw notFound();
    return row;
  }

  function assertMacFree(appId: number, mac: string, except?: number) {
    const other = db
      .select({ id: loraServers.id })
      .from(loraServers)
      .where(and(eq(loraServers.appId, appId), eq(loraServers.mac, mac)))
      .get();
    if (other && other.id !== except) throw conflict(T.lora.serverMacTaken);
  }

  function list(appId: number, q: { search?: string; page: number; size: number }) {
    const p = q.search ? `%${escapeLike(q.search)}%` : undefined;
    const where = and(
      eq(loraServers.appId, appId),
      p ? or(like(loraServers.mac, p), like(loraServers.name, p), like(loraServers.server, p)) : undefined,
    );
    const total = db.select({ n: count() }).from(loraServers).where(where).get()?.n ?? 0;
    const data = db
      .select()
      .from(loraServers)
      .where(where)
      .orderBy(asc(loraServers.id))
      .limit(q.size)
      .offset(q.page * q.size)
      .all()
      .map(present);
    return { data, total, page: q.page, size: q.size };
  }

  const get = (appId: number, id: number) => present(rowOf(appId, id));

  function add(appId: number, input: Fields) {
    assertMacFree(appId, input.mac);
    return present(
      db
        .insert(loraServers)
        .values({ appId, ...columns(input), createdAt: now() })
        .returning()
        .get(),
    );
  }

  function edit(appId: number, input: Fields & { id: number }) {
    rowOf(appId, input.id);
    assertMacFree(appId, input.mac, input.id);
    return present(db.update(loraServers).set(columns(input)).where(eq(loraServers.id, input.id)).returning().get());
  }

  function remove(appId: number, id: number) {
    rowOf(appId, id);
    const used = db.select({ n: count() }).from(devices).where(eq(devices.networkServerId, id)).get()?.n ?? 0;
    if (used > 0) throw conflict(T.lora.serverInUse);
    db.delete(loraServers).where(eq(loraServers.id, id)).run();
    return {};
  }

  return { list, get, add, edit, remove, rowOf };
}

export type LoraService = ReturnType<typeof createLoraService>;
