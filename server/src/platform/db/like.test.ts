// A user's search text is matched literally on both engines: its `%`, `_` and `\` are themselves, case is ignored.
import { afterEach, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { containing, escapeLike, likeEscaped } from './like.js';

forEachEngine('LIKE with what a user typed', (open) => {
  let opened: OpenedStore | undefined;
  afterEach(async () => opened?.close());

  it('matches %, _ and \\ as themselves, in any case', async () => {
    opened = await open();
    const matches = async (value: string, typed: string, pattern = containing(typed)) =>
      Boolean(
        Object.values((await opened!.store.one(sql`select ${likeEscaped(sql`${value}`, pattern)} as m`)) as object)[0],
      );
    expect(await matches('kat_1', 'T_1')).toBe(true);
    // `_` is no wildcard: "katX1" does not hold "t_1"
    expect(await matches('katX1', 't_1')).toBe(false);
    expect(await matches('diskon 100%', '100%')).toBe(true);
    expect(await matches('diskon 1000', '100%')).toBe(false);
    expect(await matches('C:\\data', ':\\d')).toBe(true);
    expect(await matches('C:data', ':\\d')).toBe(false);
    // a prefix pattern
    expect(await matches('Meter_A', '', `${escapeLike('meter_')}%`)).toBe(true);
    expect(await matches('MeterXA', '', `${escapeLike('meter_')}%`)).toBe(false);
  });
});
