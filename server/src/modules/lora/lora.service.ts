// LoRa network servers of an application: list, get, add, edit, remove (refused while a device uses the server).
import { T, type LoraServer } from '@sentra/contracts';
import { conflict, notFound } from '../../platform/http/errors.js';
import { isUniqueViolation } from '../../platform/db/unique.js';
import type { LoraServerRow as Row, LoraStore } from './lora.store.js';

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

export function createLoraService(
  store: LoraStore,
  opts: {
    now?: () => number;
    /** how many devices name the entry (the devices domain) */
    devicesOn: (serverId: number) => Promise<number>;
    /** after an entry was added, edited or removed (the broker's view of the application ids follows) */
    changed?: () => Promise<void>;
  },
) {
  const now = opts.now ?? Date.now;
  const changed = opts.changed ?? (async () => {});

  async function rowOf(appId: number, id: number): Promise<Row> {
    const row = await store.byId(appId, id);
    if (!row) throw notFound();
    return row;
  }

  async function assertMacFree(appId: number, mac: string, except?: number) {
    const other = await store.idByMac(appId, mac);
    if (other !== undefined && other !== except) throw conflict(T.lora.serverMacTaken);
  }

  /** a MAC taken by a concurrent add or edit is refused by the unique index: answered as the check answers it */
  const macTaken = (err: unknown) => (isUniqueViolation(err) ? conflict(T.lora.serverMacTaken) : err);

  async function list(appId: number, q: { search?: string; page: number; size: number }) {
    const { rows, total } = await store.page(appId, q);
    return { data: rows.map(present), total, page: q.page, size: q.size };
  }

  const get = async (appId: number, id: number) => present(await rowOf(appId, id));

  async function add(appId: number, input: Fields) {
    await assertMacFree(appId, input.mac);
    const row = await store.insert(appId, columns(input), now()).catch((err) => Promise.reject(macTaken(err)));
    await changed();
    return present(row);
  }

  async function edit(appId: number, input: Fields & { id: number }) {
    await rowOf(appId, input.id);
    await assertMacFree(appId, input.mac, input.id);
    const row = await store.update(input.id, columns(input)).catch((err) => Promise.reject(macTaken(err)));
    if (!row) throw notFound();
    await changed();
    return present(row);
  }

  async function remove(appId: number, id: number) {
    await rowOf(appId, id);
    if ((await opts.devicesOn(id)) > 0) throw conflict(T.lora.serverInUse);
    await store.remove(id);
    await changed();
    return {};
  }

  return { list, get, add, edit, remove, rowOf };
}

export type LoraService = ReturnType<typeof createLoraService>;
