// The devices store on both engines: the registry's rows, identities, presence, the list's and pickers' searches (a
// `%` or `_` typed by a user stays literal), the unique values the service reports as conflicts, device tokens and
// gateway sightings, and what other domains ask of it.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../platform/db/unique.js';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { CHECK_CHUNK, createDevicesStore, SEEN_CHUNK, type DevicesStore, type NewDevice } from './devices.store.js';
import { seedApplications } from './testing/applications.js';

const device = (appId: number, serial: string, over: Partial<NewDevice> = {}): Omit<NewDevice, 'id'> => ({
  appId,
  category: 1,
  deviceType: 'DUMMY',
  name: `Device ${serial}`,
  serialNumber: serial,
  createdAt: 1,
  updatedAt: 1,
  ...over,
});

forEachEngine('devices store', (open, kind) => {
  let opened: OpenedStore;
  let devices: DevicesStore;
  beforeAll(async () => {
    opened = await open();
    await seedApplications(opened.store);
    devices = createDevicesStore(opened.store);
    await devices.search.ensureIndex();
  });
  afterAll(() => opened?.close());

  describe('the registry', () => {
    it('inserts, reads within its application only, updates and removes', async () => {
      const row = await devices.insert(device(1, 'SN-1', { tags: '{"lokasi":["gudang"]}', online: false }));
      expect(row).toMatchObject({ appId: 1, serialNumber: 'SN-1', online: false, disabled: false, details: '{}' });
      expect(await devices.byId(1, row.id)).toEqual(row);
      expect(await devices.byId(2, row.id)).toBeUndefined();
      expect(await devices.serialTaken(1, 'SN-1')).toBe(true);
      expect(await devices.serialTaken(2, 'SN-1')).toBe(false);
      const changed = await devices.update(row.id, { name: 'Pompa', disabled: true, latitude: -6.2 });
      expect(changed).toMatchObject({ id: row.id, name: 'Pompa', disabled: true, latitude: -6.2 });
      expect(await devices.detailsOf(row.id)).toBe('{}');
      expect(await devices.remove(row.id)).toBe(true);
      expect(await devices.remove(row.id)).toBe(false);
      expect(await devices.update(row.id, { name: 'x' })).toBeUndefined();
      expect(await devices.detailsOf(row.id)).toBeUndefined();
    });

    it('refuses a unique value taken (serial per application, UID, username, topic, token, DevEUI per application)', async () => {
      await devices.insert(
        device(1, 'U-1', { uid: 'ZL-U1', brokerUsername: 'mqtt_u1', topic: 'sentra_u1', tokenId: 77, devEui: 'AA' }),
      );
      const taken: Partial<NewDevice>[] = [
        { serialNumber: 'U-1' },
        { uid: 'ZL-U1' },
        { brokerUsername: 'mqtt_u1' },
        { topic: 'sentra_u1' },
        { tokenId: 77 },
        { devEui: 'AA' },
      ];
      for (const over of taken) {
        const err = await devices.insert(device(1, 'U-2', over)).catch((e: unknown) => e);
        expect(isUniqueViolation(err), JSON.stringify(over)).toBe(true);
      }
      // per application: the same serial and DevEUI elsewhere are free
      await devices.insert(device(2, 'U-1', { devEui: 'AA' }));
      expect(isUniqueViolation(new Error('other'))).toBe(false);
    });

    it('finds a device by each identity the broker and the add checks know', async () => {
      const row = await devices.insert(
        device(1, 'I-1', { uid: 'ZL-I1', brokerUsername: 'mqtt_i1', topic: 'sentra_i1', tokenId: 88, devEui: 'BB' }),
      );
      expect((await devices.byUid('ZL-I1'))?.id).toBe(row.id);
      expect((await devices.byBrokerUsername('mqtt_i1'))?.id).toBe(row.id);
      expect((await devices.byTopic('sentra_i1'))?.id).toBe(row.id);
      expect((await devices.byToken(88))?.id).toBe(row.id);
      expect((await devices.byDevEui(1, 'BB'))?.id).toBe(row.id);
      expect(await devices.byDevEui(2, 'BB')).toBeUndefined();
      expect(await devices.byUid('nope')).toBeUndefined();
    });

    it('reads the sign-in state of many devices, and which UIDs are registered, a chunk a statement', async () => {
      const rows: Awaited<ReturnType<DevicesStore['insert']>>[] = [];
      for (let i = 0; i < CHECK_CHUNK + 20; i++)
        rows.push(
          await devices.insert(
            device(1 + (i % 2), `C-${i}`, { uid: `ZL-C${i}`, disabled: i % 7 === 0, brokerPassword: `h${i}` }),
          ),
        );
      const ids = rows.map((r) => r.id);
      const states = await devices.signInStatesOf([...ids, 999_999]);
      expect(states).toHaveLength(ids.length); // the unknown id is left out
      const byId = new Map(states.map((s) => [s.id, s]));
      rows.forEach((r, i) =>
        expect(byId.get(r.id)).toEqual({
          id: r.id,
          appId: 1 + (i % 2),
          disabled: i % 7 === 0,
          brokerPassword: `h${i}`,
        }),
      );
      const uids = await devices.uidsRegistered([...rows.map((_, i) => `ZL-C${i}`), 'ZL-none']);
      expect(uids.size).toBe(rows.length);
      expect(uids.has('ZL-none')).toBe(false);
      expect(await devices.signInStatesOf([])).toEqual([]);
      for (const r of rows) await devices.remove(r.id); // the plain-password test below counts the rest
    });
  });

  describe('presence', () => {
    it('marks enabled devices online and offline, never a disabled one', async () => {
      const on = await devices.insert(device(1, 'P-1'));
      const off = await devices.insert(device(1, 'P-2', { disabled: true }));
      expect(await devices.onlineOf(on.id)).toBe(false);
      expect(await devices.markPresence(on.id, true, 100)).toMatchObject({
        before: false,
        row: { online: true, lastOnlineTs: 100 },
      });
      expect(await devices.onlineOf(on.id)).toBe(true);
      expect(await devices.markPresence(on.id, false, 150)).toMatchObject({
        before: true,
        row: { online: false, lastOfflineTs: 150 },
      });
      expect(await devices.markPresence(off.id, true, 100)).toEqual({ before: false, row: undefined });
      expect(await devices.markPresence(-1, true, 100)).toEqual({ before: undefined, row: undefined });
      expect(await devices.onlineOf(off.id)).toBe(false);
      expect(await devices.onlineOf(-1)).toBeUndefined();
    });

    it('moves last_online_ts of online devices forward only, and finds the silent and the unheard', async () => {
      const a = await devices.insert(device(2, 'S-1', { category: 9, online: true, lastOnlineTs: 1000 }));
      const b = await devices.insert(device(2, 'S-2', { category: 1, online: true, lastOnlineTs: 1000 }));
      const c = await devices.insert(device(2, 'S-3', { category: 1, online: true, lastOnlineTs: null }));
      const d = await devices.insert(device(2, 'S-4', { category: 1, online: false, lastOnlineTs: 10 }));
      await devices.moveLastSeen([
        [a.id, 5000],
        [b.id, 500],
        [d.id, 5000],
      ]);
      expect((await devices.byId(2, a.id))?.lastOnlineTs).toBe(5000);
      expect((await devices.byId(2, b.id))?.lastOnlineTs).toBe(1000);
      expect((await devices.byId(2, d.id))?.lastOnlineTs).toBe(10);
      const silent = await devices.onlineSilentSince([9], 6000);
      expect(silent).toContain(a.id);
      expect(await devices.onlineSilentSince([9], 5000)).not.toContain(a.id);
      const unheard = await devices.onlineUnheardSince([9], 2000);
      expect(unheard).toEqual(expect.arrayContaining([b.id, c.id]));
      expect(unheard).not.toContain(a.id);
      expect(unheard).not.toContain(d.id);
    });

    it('moves last_online_ts of a chunk at most, a write of this store under way (SQLite) waited for', async () => {
      const a = await devices.insert(device(2, 'T-1', { online: true, lastOnlineTs: 1000 }));
      const other = await devices.insert(device(2, 'T-2'));
      const moves = Array.from({ length: SEEN_CHUNK + 1 }, (_, k) => [a.id, 2000 + k] as const);
      await expect(devices.moveLastSeen(moves)).rejects.toThrow(RangeError);
      // a transaction of this store under way (another device's row) holds SQLite's write lock, as the telemetry
      // writer's batch does; PostgreSQL locks rows, not the database
      let release!: () => void;
      const held = opened.store.tx(async () => {
        await opened.store.exec(sql`update devices set name = name where id = ${other.id}`);
        await new Promise<void>((r) => (release = r));
      });
      await new Promise((r) => setTimeout(r, 10));
      let moved = false;
      const move = devices.moveLastSeen([[a.id, 3000]]).then(() => (moved = true));
      await new Promise((r) => setTimeout(r, 30));
      expect(moved).toBe(kind === 'postgres');
      release();
      await Promise.all([held, move]);
      expect((await devices.byId(2, a.id))?.lastOnlineTs).toBe(3000);
    });
  });

  it('finds the broker passwords still in plain text and replaces them in one go', async () => {
    const plain = await devices.insert(device(1, 'H-1', { brokerUsername: 'mqtt_h1', brokerPassword: 'polos' }));
    await devices.insert(device(1, 'H-2', { brokerUsername: 'mqtt_h2', brokerPassword: 'sha256$abc' }));
    expect(await devices.plainBrokerPasswords()).toEqual([{ id: plain.id, password: 'polos' }]);
    await devices.setBrokerPasswords([{ id: plain.id, password: 'sha256$def' }]);
    expect(await devices.plainBrokerPasswords()).toEqual([]);
  });

  describe('searches', () => {
    let app: number;
    beforeAll(async () => {
      // an application of its own, so the other tests' devices do not count
      await opened.store.exec(
        sql`insert into applications (id, tenant_id, name, domain, created_at) values (3, 1, 'Cari', 'cari', 0)`,
      );
      app = 3;
      await devices.insert(device(app, 'SN-100', { name: 'Pompa Air 1', tags: '{"lokasi":["gudang","kantor"]}' }));
      await devices.insert(device(app, 'SN-101', { name: 'pompa air 2', online: true, tags: '{"lokasi":["pabrik"]}' }));
      await devices.insert(device(app, 'SN-102', { name: 'Panel 100%', deviceType: 'MQTT', tags: '{"zona":["A"]}' }));
      await devices.insert(device(app, 'X_9', { name: 'Sensor_Suhu', tags: '{"lokasi":"gudang"}' }));
      await devices.insert(device(app, 'SN-104', { name: 'Alarm', tags: '{}' }));
    });
    const names = (rows: { name: string }[]) => rows.map((r) => r.name);

    it('filters newest first, by status, type, name or serial substring (any case) and tag; counts the whole', async () => {
      const all = await devices.search.filter(app, { page: 0, size: 2 });
      expect(all.total).toBe(5);
      expect(names(all.rows)).toEqual(['Alarm', 'Sensor_Suhu']);
      expect(names((await devices.search.filter(app, { page: 2, size: 2 })).rows)).toEqual(['Pompa Air 1']);
      expect(names((await devices.search.filter(app, { status: ['on'], page: 0, size: 9 })).rows)).toEqual([
        'pompa air 2',
      ]);
      expect((await devices.search.filter(app, { status: ['off'], page: 0, size: 9 })).total).toBe(4);
      expect(names((await devices.search.filter(app, { type: 'MQTT', page: 0, size: 9 })).rows)).toEqual([
        'Panel 100%',
      ]);
      expect(names((await devices.search.filter(app, { search: 'POMPA AIR', page: 0, size: 9 })).rows)).toEqual([
        'pompa air 2',
        'Pompa Air 1',
      ]);
      expect((await devices.search.filter(app, { search: 'sn-10', page: 0, size: 9 })).total).toBe(4);
      // shorter than three characters: a prefix
      expect(names((await devices.search.filter(app, { search: 'al', page: 0, size: 9 })).rows)).toEqual(['Alarm']);
      expect(
        names((await devices.search.filter(app, { tag: 'lokasi:gudang', page: 0, size: 9 })).rows),
        'a value under its category; not a value that is no list',
      ).toEqual(['Pompa Air 1']);
      expect((await devices.search.filter(app, { tag: 'zona:gudang', page: 0, size: 9 })).total).toBe(0);
    });

    it("keeps a user's % and _ literal", async () => {
      expect(names((await devices.search.filter(app, { search: '00%', page: 0, size: 9 })).rows)).toEqual([
        'Panel 100%',
      ]);
      expect((await devices.search.filter(app, { search: '%', page: 0, size: 9 })).total).toBe(0);
      expect(names((await devices.search.filter(app, { search: 'r_s', page: 0, size: 9 })).rows)).toEqual([
        'Sensor_Suhu',
      ]);
      expect((await devices.search.filter(app, { search: 'r_', page: 0, size: 9 })).total).toBe(0);
      expect((await devices.search.filter(app, { search: 'X_', page: 0, size: 9 })).total).toBe(1);
      // as a wildcard it would match every name and serial starting with S
      expect((await devices.search.filter(app, { search: 'S_', page: 0, size: 9 })).total).toBe(0);
    });

    it('finds a device by its id among the digits typed', async () => {
      const alarm = (await devices.search.filter(app, { search: 'Alarm', page: 0, size: 1 })).rows[0]!;
      const found = await devices.search.filter(app, { search: String(alarm.id), page: 0, size: 9 });
      expect(found.rows.map((r) => r.id)).toContain(alarm.id);
    });

    it('orders a pick for choosing: the exact id, names that start with the text, then by name without case', async () => {
      const all = await devices.search.pick(app, { page: 0, size: 9 });
      expect(all.total).toBe(5);
      expect(names(all.rows)).toEqual(['Alarm', 'Panel 100%', 'Pompa Air 1', 'pompa air 2', 'Sensor_Suhu']);
      const air = await devices.search.pick(app, { search: 'air', page: 0, size: 9 });
      expect(names(air.rows)).toEqual(['Pompa Air 1', 'pompa air 2']);
      const p = await devices.search.pick(app, { search: 'pa', page: 0, size: 9 });
      expect(names(p.rows)).toEqual(['Panel 100%']);
      const pan = await devices.search.pick(app, { search: 'an', page: 0, size: 9 });
      expect(pan.total).toBe(0);
      const tagged = await devices.search.pick(app, { tags: ['gudang', 'zona:A'], page: 0, size: 9 });
      expect(names(tagged.rows)).toEqual(['Panel 100%', 'Pompa Air 1']);
      const alarm = all.rows[0]!;
      const byId = await devices.search.pick(app, { ids: [alarm.id], page: 0, size: 9 });
      expect(byId.rows).toEqual([expect.objectContaining({ id: alarm.id, serial: 'SN-104', online: false })]);
      const page = await devices.search.pick(app, { page: 1, size: 2 });
      expect(names(page.rows)).toEqual(['Pompa Air 1', 'pompa air 2']);
    });

    it('answers what the tags domain asks: ids, maps mentioning a key, and a map rewritten', async () => {
      const ids = await devices.idsOf(app);
      expect(ids).toHaveLength(5);
      const mentioning = await devices.tagMapsMatching(app, '%"lokasi"%');
      expect(mentioning).toHaveLength(3);
      await devices.setTags(mentioning[0]!.id, '{}');
      expect(await devices.tagMapsMatching(app, '%"lokasi"%')).toHaveLength(2);
      expect(await devices.tagMapsMatching(app, '%"lokasi\\_"%')).toHaveLength(0);
    });
  });

  it('counts the devices on a LoRa network server', async () => {
    await opened.store.exec(
      sql`insert into lora_servers (id, app_id, mac, name, server, created_at) values (5, 1, 'AA:BB', 'NS', 'ns.local', 0)`,
    );
    expect(await devices.countOnNetworkServer(5)).toBe(0);
    await devices.insert(device(1, 'L-1', { category: 9, devEui: 'CC', networkServerId: 5 }));
    expect(await devices.countOnNetworkServer(5)).toBe(1);
  });

  it('keeps device tokens: by hash, by id, connected, removed', async () => {
    const t = await devices.insertToken(1, 'hash-1', 10);
    expect(await devices.tokenByHash('hash-1')).toEqual({
      id: t.id,
      appId: 1,
      tokenHash: 'hash-1',
      createdAt: 10,
      connectedAt: null,
    });
    await devices.tokenConnected(t.id, 20);
    expect((await devices.tokenById(t.id))?.connectedAt).toBe(20);
    await devices.removeToken(t.id);
    expect(await devices.tokenById(t.id)).toBeUndefined();
    const err = await Promise.all([devices.insertToken(1, 'same', 1), devices.insertToken(2, 'same', 1)]).catch(
      (e) => e,
    );
    expect(isUniqueViolation(err)).toBe(true);
  });

  it('keeps gateway sightings within a bound, the one heard longest ago making room, and prunes by age', async () => {
    await opened.store.exec(sql`delete from gateway_sightings`);
    expect(await devices.recordSighting('G1', 100, 2, false)).toEqual({ fresh: true, evicted: undefined, kept: 1 });
    expect(await devices.recordSighting('G2', 200, 2, false)).toMatchObject({ fresh: true, kept: 2 });
    expect(await devices.recordSighting('G1', 300, 2, false)).toEqual({
      fresh: false,
      evicted: undefined,
      kept: undefined,
    });
    expect(await devices.recordSighting('G3', 400, 2, false)).toEqual({ fresh: true, evicted: 'G2', kept: 2 });
    expect(await devices.sightingCount()).toBe(2);
    expect(await devices.sightingOf('G1')).toBe(300);
    expect(await devices.sightingOf('G2')).toBeUndefined();
    // known to the caller: renewed without looking
    expect(await devices.recordSighting('G3', 500, 2, true)).toMatchObject({ fresh: false });
    expect(await devices.sightingOf('G3')).toBe(500);
    expect(await devices.pruneSightings(400)).toBe(1);
    expect(await devices.sightingCount()).toBe(1);
  });

  it('goes with its application (cascade)', async () => {
    await opened.store.exec(
      sql`insert into applications (id, tenant_id, name, domain, created_at) values (4, 1, 'Hapus', 'hapus', 0)`,
    );
    const row = await devices.insert(device(4, 'C-1'));
    await devices.insertToken(4, 'hash-4', 1);
    await opened.store.exec(sql`delete from applications where id = 4`);
    expect(await devices.byId(4, row.id)).toBeUndefined();
    expect(await devices.tokenByHash('hash-4')).toBeUndefined();
  });
});
