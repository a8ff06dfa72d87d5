// The state list's Download: a Waktu range longer than one answer still gives the whole history in one file, and a
// refused download says why.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STATE_RANGE_MAX, T, type StateRow } from '@sentra/contracts';
import { notices } from '../../ui/snackbar/notices.js';

const saved = vi.hoisted(() => ({ files: [] as { name: string; text: string }[] }));
vi.mock('../device-data/format.js', async (orig) => ({
  ...(await orig<object>()),
  saveText: (name: string, text: string) => saved.files.push({ name, text }),
}));

/** a stored history of 12,001 value periods, one per second, answered like the server: newest first, pages of STATE_RANGE_MAX */
const history: StateRow[] = Array.from({ length: 12_001 }, (_, i) => ({
  key: 'mode',
  value: `v${i}`,
  is_null: false,
  initial_ts: 1_000_000 + i * 1000,
  latest_ts: 1_000_000 + i * 1000 + 500,
}));
const api = vi.hoisted(() => ({ calls: [] as any[], answer: null as null | ((input: any) => any) }));
vi.mock('../../api/client.js', () => ({
  api: {
    call: async (def: { path: string }, input: any) => {
      api.calls.push({ path: def.path, input });
      if (api.answer) return api.answer(input);
      const inRange = history.filter((p) => p.initial_ts >= input.start && p.initial_ts <= input.end).reverse();
      return {
        code: 200,
        headers: {},
        text: 'OK',
        body: {
          response_result: 0,
          state_data: inRange.slice(0, STATE_RANGE_MAX),
          truncated: inRange.length > STATE_RANGE_MAX,
        },
      };
    },
  },
}));

const { downloadStateCsv } = await import('./stateDownload.js');

beforeEach(() => {
  saved.files.length = 0;
  api.calls.length = 0;
  api.answer = null;
  for (const n of notices.snapshot()) notices.dismiss(n.id);
});

describe('state Download by Waktu', () => {
  it('puts every period of a range holding more than one answer in the file, oldest first, none twice', async () => {
    expect(
      await downloadStateCsv({ id: 7, label: 'Pompa' }, 'mode', { kind: 'time', start: 0, end: 10_000_000_000 }),
    ).toBe(true);
    expect(api.calls.length).toBe(3);
    const lines = saved.files[0]!.text.trim().split('\r\n');
    expect(lines).toHaveLength(1 + 12_001);
    expect(lines[1]!.split(',')[1]).toBe('v0');
    expect(lines.at(-1)!.split(',')[1]).toBe('v12000');
    expect(saved.files[0]!.name).toMatch(/^Pompa_\d{8}_\d{6}_7_state_mode\.csv$/);
  });
  it('reads a bounded number of pages, keeps the newest and says the file was cut', async () => {
    const { allPeriods } = await import('./stateDownload.js');
    const got = await allPeriods(7, 'mode', 0, 10_000_000_000, 2);
    expect(got.ok && got.cut).toBe(true);
    expect(api.calls.length).toBe(2);
    expect(got.ok && got.rows[0]!.value).toBe('v12000');
    expect(got.ok && got.rows.length).toBe(2 * STATE_RANGE_MAX);
  });
  it('stops when a page reaches no further back (a server answering the same page again)', async () => {
    api.answer = (input) => ({
      code: 200,
      headers: {},
      text: 'OK',
      body: {
        response_result: 0,
        state_data: [{ key: 'mode', value: 'x', is_null: false, initial_ts: input.start, latest_ts: input.start + 1 }],
        truncated: true,
      },
    });
    expect(await downloadStateCsv({ id: 7, label: 'Pompa' }, 'mode', { kind: 'time', start: 5, end: 10 })).toBe(true);
    expect(api.calls.length).toBe(2);
    expect(notices.snapshot().map((n) => n.message)).toContain(T.deviceData.downloadCut(1));
  });
  it("shows the server's reason when a download is refused", async () => {
    api.answer = () => ({
      code: 400,
      headers: {},
      text: 'Bad Request',
      body: {
        response_result: -10,
        message: 'Input tidak valid',
        errors: [{ path: 'end', message: T.deviceData.rangeOrder }],
      },
    });
    expect(await downloadStateCsv({ id: 7, label: 'Pompa' }, 'mode', { kind: 'time', start: 10, end: 5 })).toBe(false);
    expect(notices.snapshot().map((n) => n.message)).toContain(
      T.deviceData.downloadFailedBecause(T.deviceData.rangeOrder),
    );
    expect(saved.files).toEqual([]);
  });
});
