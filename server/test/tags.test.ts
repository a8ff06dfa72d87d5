// Tag categories and options (spec 03 sections 2.8, 5, 7 "Tags", 8): add with the key rules, options with -4 on a
// duplicate and refusal on types without options, list/search/exists, isolation and roles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { T, deviceDataContract, devicesContract, tagsContract } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { addDevice, memberWithRole, tenantWithApp } from './fixtures.js';

let gw: Running;
let owner: Awaited<ReturnType<typeof tenantWithApp>>;
let auth: { tenant: { id: number; token: string }; domain: string };
beforeAll(async () => {
  gw = await startGateway();
  owner = await tenantWithApp(gw.url);
  auth = { tenant: owner.tenant, domain: owner.domain };
});
afterAll(async () => gw.stop());

describe('POST tag/category/add', () => {
  it('derives the key from the label (lowercased, spaces to underscores) when empty', async () => {
    const r = await call(gw.url, tagsContract.add, { name: 'Area Produksi', prefix: '', category: 1 }, auth);
    expect(r.body).toMatchObject({
      response_result: 0,
      data: {
        name: 'Area Produksi',
        prefix: 'area_produksi',
        category: 1,
        category_text: 'Single Selection',
        definitions: [],
      },
    });
  });
  it.each([
    [{ prefix: 'Besar' }, 'prefix', T.tags.keyNoUpper],
    [{ prefix: 'ada spasi' }, 'prefix', T.tags.keyNoSpace],
    [{ prefix: 'k'.repeat(33) }, 'prefix', T.common.max(32)],
    [{ name: '' }, 'name', T.common.required],
    [{ name: 'n'.repeat(33) }, 'name', T.common.max(32)],
  ])('answers -10 for %j', async (over, path, message) => {
    const r = await call(gw.url, tagsContract.add, { name: 'Label', category: 2, ...over }, auth);
    expect(r.body.response_result).toBe(-10);
    expect(r.body.errors[0]).toEqual({ path, message });
  });
  it('accepts the four types only', async () => {
    for (const category of [1, 2, 3, 4])
      expect(
        (await call(gw.url, tagsContract.add, { name: `Tipe ${category}`, category }, auth)).body.response_result,
      ).toBe(0);
    expect((await call(gw.url, tagsContract.add, { name: 'Tipe 5', category: 5 }, auth)).body.response_result).toBe(
      -10,
    );
  });
  it('answers -12 for a key already in the application', async () => {
    await call(gw.url, tagsContract.add, { name: 'Ruang', category: 2 }, auth);
    expect((await call(gw.url, tagsContract.add, { name: 'Ruang', category: 4 }, auth)).body).toMatchObject({
      response_result: -12,
      message: T.tags.serverKeyTaken,
    });
  });
});

describe('POST tag/definition/add', () => {
  it('adds options to a single-selection category and answers HTTP 400 -4 "Pilihan sudah terdaftar!" for a duplicate', async () => {
    await call(gw.url, tagsContract.add, { name: 'Lantai', category: 1 }, auth);
    const r = await call(gw.url, tagsContract.addDefinition, { name: 'Lantai Satu', prefix: 'lantai' }, auth);
    expect(r.body).toMatchObject({
      response_result: 0,
      data: { name: 'Lantai Satu', name_lc: 'lantai_satu', prefix: 'lantai' },
    });
    const dup = await call(
      gw.url,
      tagsContract.addDefinition,
      { name: 'LANTAI SATU', prefix: 'lantai', name_lc: 'lantai_satu' },
      auth,
    );
    expect(dup.status).toBe(400);
    expect(dup.body).toMatchObject({ response_result: -4, message: T.tags.optionDuplicate });
    const all = await call(gw.url, tagsContract.all, {}, auth);
    expect(all.body.categories.find((c: { prefix: string }) => c.prefix === 'lantai').definitions).toEqual([
      { name: 'Lantai Satu', name_lc: 'lantai_satu', prefix: 'lantai' },
    ]);
  });
  it('refuses options on types that take none with "Fitur tidak ada untuk penanda dengan tipe ini"', async () => {
    for (const category of [2, 3, 4]) {
      await call(gw.url, tagsContract.add, { name: `Tanpa Pilihan ${category}`, category }, auth);
      const r = await call(
        gw.url,
        tagsContract.addDefinition,
        { name: 'x', prefix: `tanpa_pilihan_${category}` },
        auth,
      );
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ response_result: -5, message: T.tags.optionNotAllowed });
    }
  });
  it('checks the option key: no capitals, no spaces', async () => {
    await call(gw.url, tagsContract.add, { name: 'Zona', category: 1 }, auth);
    expect(
      (await call(gw.url, tagsContract.addDefinition, { name: 'A', prefix: 'zona', name_lc: 'A' }, auth)).body.errors[0]
        .message,
    ).toBe(T.tags.optionKeyNoUpper);
    expect(
      (await call(gw.url, tagsContract.addDefinition, { name: 'A', prefix: 'zona', name_lc: 'a b' }, auth)).body
        .errors[0].message,
    ).toBe(T.tags.optionKeyNoSpace);
  });
});

describe('reading tag categories', () => {
  it('lists with search on name or prefix and paging (default 10); exists answers value', async () => {
    const app = await tenantWithApp(gw.url);
    const a = { tenant: app.tenant, domain: app.domain };
    for (let i = 1; i <= 12; i++)
      await call(gw.url, tagsContract.add, { name: `Kategori ${i}`, prefix: `kat_${i}`, category: 4 }, a);
    const page = await call(gw.url, tagsContract.list, {}, a);
    expect(page.body).toMatchObject({ total: 12, page: 0, size: 10 });
    expect(page.body.categories).toHaveLength(10);
    expect((await call(gw.url, tagsContract.list, { search: 'kat_1' }, a)).body.total).toBe(4);
    expect((await call(gw.url, tagsContract.exists, { prefix: 'kat_3' }, a)).body.value).toBe(true);
    expect((await call(gw.url, tagsContract.exists, { name: 'Kategori 3' }, a)).body.value).toBe(false);
    expect((await call(gw.url, tagsContract.exists, { prefix: 'kat_3' }, auth)).body.value).toBe(false);
  });
});

describe('who may call', () => {
  it('answers 401 without credentials', async () => {
    expect((await call(gw.url, tagsContract.all, {}, { domain: owner.domain })).status).toBe(401);
    expect((await call(gw.url, tagsContract.add, { name: 'X', category: 1 }, { domain: owner.domain })).status).toBe(
      401,
    );
  });
  it("answers 404 for another tenant's category when adding an option", async () => {
    await call(gw.url, tagsContract.add, { name: 'Rahasia', category: 1 }, auth);
    const other = await tenantWithApp(gw.url);
    const r = await call(
      gw.url,
      tagsContract.addDefinition,
      { name: 'x', prefix: 'rahasia' },
      { tenant: other.tenant, domain: other.domain },
    );
    expect(r.status).toBe(404);
  });
  it('lets a _device_list_ user read but answers 403 on writes', async () => {
    const viewer = await memberWithRole(gw.url, owner, { sys_navs: ['_device_list_'] });
    const v = { member: viewer.member, domain: owner.domain };
    expect((await call(gw.url, tagsContract.all, {}, v)).status).toBe(200);
    expect((await call(gw.url, tagsContract.list, {}, v)).status).toBe(200);
    expect((await call(gw.url, tagsContract.add, { name: 'Tidak', category: 1 }, v)).status).toBe(403);
    expect((await call(gw.url, tagsContract.addDefinition, { name: 'x', prefix: 'rahasia' }, v)).status).toBe(403);
  });
});

describe('editing and removing tag categories and options (issue 28)', () => {
  const categoryOf = async (a: typeof auth, prefix: string) =>
    (await call(gw.url, tagsContract.all, {}, a)).body.categories.find((c: { prefix: string }) => c.prefix === prefix);

  it('renames a category, keeping its key, type and options', async () => {
    const added = (await call(gw.url, tagsContract.add, { name: 'Gedung', category: 1 }, auth)).body.data;
    await call(gw.url, tagsContract.addDefinition, { name: 'Gedung A', prefix: 'gedung' }, auth);
    const r = await call(
      gw.url,
      tagsContract.edit,
      { id: added.id, name: 'Gedung Kantor', prefix: 'lain', category: 4 },
      auth,
    );
    expect(r.body).toMatchObject({
      response_result: 0,
      data: {
        id: added.id,
        name: 'Gedung Kantor',
        prefix: 'gedung',
        category: 1,
        definitions: [{ name: 'Gedung A', name_lc: 'gedung_a' }],
      },
    });
    expect((await categoryOf(auth, 'gedung')).name).toBe('Gedung Kantor');
    const bad = await call(gw.url, tagsContract.edit, { id: added.id, name: 'n'.repeat(33) }, auth);
    expect(bad.body.response_result).toBe(-10);
    expect(bad.body.errors[0]).toEqual({ path: 'name', message: T.common.max(32) });
  });

  it("removes a category and takes its values out of the application's devices and sensors", async () => {
    const app = await tenantWithApp(gw.url);
    const a = { tenant: app.tenant, domain: app.domain };
    const cat = (await call(gw.url, tagsContract.add, { name: 'Wilayah', category: 1 }, a)).body.data;
    await call(gw.url, tagsContract.addDefinition, { name: 'Utara', prefix: 'wilayah' }, a);
    await call(gw.url, tagsContract.addDefinition, { name: 'Selatan', prefix: 'wilayah' }, a);
    await call(gw.url, tagsContract.add, { name: 'Label', category: 4 }, a);
    const d1 = await addDevice(gw.url, a, 'dummy', { tags: { wilayah: ['utara'], label: ['panel'] } });
    const d2 = await addDevice(gw.url, a, 'dummy', { tags: { wilayah: ['selatan'] } });
    const d3 = await addDevice(gw.url, a, 'dummy', { tags: { label: ['lain'] } });
    await call(
      gw.url,
      deviceDataContract.tagsEdit,
      { device_id: d3.id, key: 'hvac.data.suhu', tags: { wilayah: ['utara'] } },
      a,
    );

    const r = await call(gw.url, tagsContract.remove, { id: cat.id }, a);
    expect(r.body).toEqual({ response_result: 0, devices: 3 });
    expect(await categoryOf(a, 'wilayah')).toBeUndefined();
    const tagsOf = async (id: number) => (await call(gw.url, devicesContract.get, { id }, a)).body.data.tags;
    expect(await tagsOf(d1.id)).toEqual({ label: ['panel'] });
    expect(await tagsOf(d2.id)).toEqual({});
    expect(
      (await call(gw.url, deviceDataContract.tagsGet, { device_id: d3.id, key: 'hvac.data.suhu' }, a)).body.tags,
    ).toEqual({});
    // the device's other tags still pass the check on the next edit
    expect(
      (await call(gw.url, devicesContract.edit, { id: d1.id, tags: { label: ['panel', 'baru'] } }, a)).body
        .response_result,
    ).toBe(0);
  });

  it('renames an option (its key stays) and removes one, taking only that value out of devices', async () => {
    const app = await tenantWithApp(gw.url);
    const a = { tenant: app.tenant, domain: app.domain };
    await call(gw.url, tagsContract.add, { name: 'Zona Kerja', category: 1 }, a);
    await call(gw.url, tagsContract.addDefinition, { name: 'Gudang', prefix: 'zona_kerja' }, a);
    await call(gw.url, tagsContract.addDefinition, { name: 'Kantor', prefix: 'zona_kerja' }, a);
    const d = await addDevice(gw.url, a, 'dummy', { tags: { zona_kerja: ['gudang'] } });
    const kept = await addDevice(gw.url, a, 'dummy', { tags: { zona_kerja: ['kantor'] } });

    const renamed = await call(
      gw.url,
      tagsContract.editDefinition,
      { prefix: 'zona_kerja', name_lc: 'kantor', name: 'Kantor Pusat' },
      a,
    );
    expect(renamed.body).toMatchObject({
      response_result: 0,
      data: { name: 'Kantor Pusat', name_lc: 'kantor', prefix: 'zona_kerja' },
    });

    const removed = await call(gw.url, tagsContract.removeDefinition, { prefix: 'zona_kerja', name_lc: 'gudang' }, a);
    expect(removed.body).toMatchObject({ response_result: 0, devices: 1 });
    expect((await categoryOf(a, 'zona_kerja')).definitions).toEqual([
      { name: 'Kantor Pusat', name_lc: 'kantor', prefix: 'zona_kerja' },
    ]);
    expect((await call(gw.url, devicesContract.get, { id: d.id }, a)).body.data.tags).toEqual({});
    expect((await call(gw.url, devicesContract.get, { id: kept.id }, a)).body.data.tags).toEqual({
      zona_kerja: ['kantor'],
    });
    expect(
      (await call(gw.url, tagsContract.removeDefinition, { prefix: 'zona_kerja', name_lc: 'gudang' }, a)).status,
    ).toBe(404);
  });

  it("answers 404 for another application's category or option and leaves them as they were", async () => {
    const mine = (await call(gw.url, tagsContract.add, { name: 'Milik Saya', category: 1 }, auth)).body.data;
    await call(gw.url, tagsContract.addDefinition, { name: 'Satu', prefix: 'milik_saya' }, auth);
    const other = await tenantWithApp(gw.url);
    const o = { tenant: other.tenant, domain: other.domain };
    expect((await call(gw.url, tagsContract.edit, { id: mine.id, name: 'Dicuri' }, o)).status).toBe(404);
    expect((await call(gw.url, tagsContract.remove, { id: mine.id }, o)).status).toBe(404);
    expect(
      (await call(gw.url, tagsContract.editDefinition, { prefix: 'milik_saya', name_lc: 'satu', name: 'x' }, o)).status,
    ).toBe(404);
    expect(
      (await call(gw.url, tagsContract.removeDefinition, { prefix: 'milik_saya', name_lc: 'satu' }, o)).status,
    ).toBe(404);
    expect(await categoryOf(auth, 'milik_saya')).toMatchObject({ name: 'Milik Saya', definitions: [{ name: 'Satu' }] });
  });

  it('answers 403 on edit and delete to a role that only lists devices', async () => {
    const viewer = await memberWithRole(gw.url, owner, { sys_navs: ['_device_list_'] });
    const v = { member: viewer.member, domain: owner.domain };
    const cat = (await call(gw.url, tagsContract.add, { name: 'Terjaga', category: 1 }, auth)).body.data;
    expect((await call(gw.url, tagsContract.edit, { id: cat.id, name: 'x' }, v)).status).toBe(403);
    expect((await call(gw.url, tagsContract.remove, { id: cat.id }, v)).status).toBe(403);
    expect((await call(gw.url, tagsContract.removeDefinition, { prefix: 'terjaga', name_lc: 'x' }, v)).status).toBe(
      403,
    );
  });
});
