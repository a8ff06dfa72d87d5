// A param's CSV download: asked for in the zone the screens show, and a refusal says why in its toast.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { T } from '@sentra/contracts';
import { notices } from '../../ui/snackbar/notices.js';

const saved = vi.hoisted(() => ({ files: [] as string[] }));
vi.mock('./format.js', async (orig) => ({
  ...(await orig<object>()),
  saveText: (name: string) => saved.files.push(name),
}));
const api = vi.hoisted(() => ({
  calls: [] as any[],
  answer: (): any => ({
    code: 200,
    headers: { 'content-disposition': 'attachment; filename="Meteran_20240501_080000_7_meter_data_kwh.csv"' },
    text: 'OK',
    body: 'timestamp\r\n',
  }),
}));
vi.mock('../../api/client.js', () => ({
  api: { call: async (def: { path: string }, input: any) => (api.calls.push({ path: def.path, input }), api.answer()) },
}));

const { downloadParamCsv } = await import('./download.js');
const row = { sensor: 'meter', configtype: 'data', param: 'kwh' };
const messages = () => notices.snapshot().map((n) => n.message);

beforeEach(() => {
  saved.files.length = 0;
  api.calls.length = 0;
  for (const n of notices.snapshot()) notices.dismiss(n.id);
});

describe('downloadParamCsv', () => {
  it("asks for the file in the browser's time zone and saves it under the server's name", async () => {
    expect(await downloadParamCsv({ id: 7, label: 'Meteran' }, row, { kind: 'time', start: 0, end: 10 })).toBe(true);
    expect(api.calls[0].input).toMatchObject({
      id: 7,
      start: 0,
      end: 10,
      tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    expect(saved.files).toEqual(['Meteran_20240501_080000_7_meter_data_kwh.csv']);
  });
  it('shows "Download gagal" with the server\'s message when the download is refused', async () => {
    api.answer = () => ({
      code: 404,
      headers: {},
      text: 'Not Found',
      body: JSON.stringify({ response_result: -11, message: 'Perangkat tidak ditemukan' }),
    });
    expect(await downloadParamCsv({ id: 7, label: 'Meteran' }, row, { kind: 'count', n: 50 })).toBe(false);
    expect(messages()).toContain(T.deviceData.downloadFailedBecause('Perangkat tidak ditemukan'));
  });
  it('says the connection failed when no answer came', async () => {
    api.answer = () => ({ code: 0, headers: {}, text: 'network failure', body: null, failure: 'network' });
    await downloadParamCsv({ id: 7, label: 'Meteran' }, row, { kind: 'count', n: 50 });
    expect(messages()).toContain(T.deviceData.downloadFailedBecause(T.common.noConnection));
  });
});
