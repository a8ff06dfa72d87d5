// The tags store on both engines: categories and options by application, the list's page and search (a `%` or `_`
// typed by a user stays literal), the unique keys the service reports as conflicts, and removals that rewrite the tag
// maps first in the same transaction and take the options with their category.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isUniqueViolation } from '../../platform/db/unique.js';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { seedApplications } from '../devices/testing/applications.js';
import { createTagsStore, type TagsStore } from './tags.store.js';

forEachEngine('tags store', (open) => {
  let opened: OpenedStore;
  let tags: TagsStore;
  beforeAll(async () => {
    opened = await open();
    await seedApplications(opened.store);
    tags = createTagsStore(opened.store);
  });
  afterAll(() => opened?.close());

  const category = (appId: number, prefix: string, name = prefix, kind = 1) =>
    tags.insertCategory({ appId, name, prefix, category: kind, createdAt: 1 });

  it('keeps categories per application: by key, by id, all of them by id, some keys', async () => {
    const lokasi = await category(1, 'lokasi', 'Lokasi');
    const zona = await category(1, 'zona', 'Zona');
    const other = await category(2, 'lokasi', 'Lokasi');
    expect(await tags.categoryByPrefix(1, 'lokasi')).toEqual(lokasi);
    expect(await tags.categoryById(1, zona.id)).toEqual(zona);
    expect(await tags.categoryById(1, other.id)).toBeUndefined();
    expect((await tags.categories(1)).map((c) => c.prefix)).toEqual(['lokasi', 'zona']);
    expect((await tags.categoriesByPrefix(1, ['zona', 'tidak'])).map((c) => c.id)).toEqual([zona.id]);
    expect(await tags.categoriesByPrefix(1, [])).toEqual([]);
    await tags.renameCategory(zona.id, 'Zona Baru');
    expect((await tags.categoryById(1, zona.id))?.name).toBe('Zona Baru');
    const taken = await category(1, 'lokasi').catch((e: unknown) => e);
    expect(isUniqueViolation(taken)).toBe(true);
  });

  it("pages by id and searches name and key without case, a user's % and _ literal", async () => {
    await opened.store.exec(
      sql`insert into applications (id, tenant_id, name, domain, created_at) values (3, 1, 'Cari', 'cari', 0)`,
    );
    await category(3, 'diskon', 'Diskon 50%');
    await category(3, 'kode_a', 'Kode');
    await category(3, 'kodexb', 'Kodex');
    const first = await tags.page(3, { page: 0, size: 2 });
    expect(first.total).toBe(3);
    expect(first.rows.map((r) => r.prefix)).toEqual(['diskon', 'kode_a']);
    expect((await tags.page(3, { page: 1, size: 2 })).rows.map((r) => r.prefix)).toEqual(['kodexb']);
    expect((await tags.page(3, { search: 'DISKON', page: 0, size: 9 })).total).toBe(1);
    expect((await tags.page(3, { search: '50%', page: 0, size: 9 })).rows.map((r) => r.prefix)).toEqual(['diskon']);
    expect((await tags.page(3, { search: '%', page: 0, size: 9 })).total).toBe(1);
    expect((await tags.page(3, { search: 'e_', page: 0, size: 9 })).rows.map((r) => r.prefix)).toEqual(['kode_a']);
  });

  it('keeps the options of a category by id, one by name_lc, renamed, a name_lc once per category', async () => {
    const jenis = await category(1, 'jenis');
    const warna = await category(1, 'warna');
    await tags.insertDefinition({ categoryId: jenis.id, name: 'Pompa', nameLc: 'pompa', createdAt: 1 });
    await tags.insertDefinition({ categoryId: jenis.id, name: 'Panel', nameLc: 'panel', createdAt: 1 });
    await tags.insertDefinition({ categoryId: warna.id, name: 'Pompa', nameLc: 'pompa', createdAt: 1 });
    const defs = await tags.definitionsOf([jenis.id]);
    expect(defs.map((d) => d.nameLc)).toEqual(['pompa', 'panel']);
    expect(await tags.definitionsOf([])).toEqual([]);
    const panel = await tags.definition(jenis.id, 'panel');
    await tags.renameDefinition(panel!.id, 'Panel Listrik');
    expect((await tags.definition(jenis.id, 'panel'))?.name).toBe('Panel Listrik');
    expect(await tags.definition(jenis.id, 'tidak')).toBeUndefined();
    const taken = await tags
      .insertDefinition({ categoryId: jenis.id, name: 'Pompa 2', nameLc: 'pompa', createdAt: 1 })
      .catch((e: unknown) => e);
    expect(isUniqueViolation(taken)).toBe(true);
  });

  it('removes an option or a category (its options with it) after rewriting the maps, all or nothing', async () => {
    const kelas = await category(2, 'kelas');
    await tags.insertDefinition({ categoryId: kelas.id, name: 'A', nameLc: 'a', createdAt: 1 });
    await tags.insertDefinition({ categoryId: kelas.id, name: 'B', nameLc: 'b', createdAt: 1 });
    const a = await tags.definition(kelas.id, 'a');
    expect(await tags.removeDefinition(a!.id, async () => 7)).toBe(7);
    expect(await tags.definition(kelas.id, 'a')).toBeUndefined();
    // a rewrite that fails keeps the category, its options, and what the rewrite wrote
    const failed = tags.removeCategory(kelas.id, async () => {
      await opened.store.exec(sql`update tag_categories set name = 'tulis' where id = ${kelas.id}`);
      throw new Error('rewrite failed');
    });
    await expect(failed).rejects.toThrow('rewrite failed');
    expect((await tags.categoryById(2, kelas.id))?.name).toBe('kelas');
    expect(await tags.removeCategory(kelas.id, async () => 3)).toBe(3);
    expect(await tags.categoryById(2, kelas.id)).toBeUndefined();
    expect(await tags.definitionsOf([kelas.id])).toEqual([]);
  });
});
