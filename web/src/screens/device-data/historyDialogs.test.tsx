// The Data dialog, the Lihat State dialog and the Download dialog as a user meets them (spec 03 sections 2.5, 2.6,
// 9): pages of 25/50/100 with "Baris terlihat:" and "x-y dari n", a note when a long range was cut to its newest rows,
// a clear error and no call when the end is before the start, and the download range one calendar month back.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { apiRecorder as api } from '../../cards/api.test-kit.js';
import { T } from '@sentra/contracts';

vi.mock('../../api/client.js', async () => (await import('../../cards/api.test-kit.js')).recordedApiModule());

const { DataDialog } = await import('./DataDialog.js');
const { DownloadDialog, monthBack } = await import('./DownloadDialog.js');
const { StateDialog } = await import('../device-states/StateDialog.js');

const ok = (body: object) => ({ code: 200, headers: {}, text: 'OK', body: { response_result: 0, ...body } });
const points = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    dt: 'number',
    value: n - i,
    quality: 'good',
    timestamp: 1_700_000_000_000 - i * 1000,
    sensor: 's',
    configtype: 'data',
    param: 'v',
  }));
const periods = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    key: 'mode',
    value: `v${n - i}`,
    is_null: false,
    initial_ts: 1_700_000_000_000 - i * 1000,
    latest_ts: 1_700_000_000_000 - i * 1000,
  }));
const series = { deviceId: 7, sensor: 's', configtype: 'data', param: 'v' };

beforeEach(() => {
  api.calls.length = 0;
  api.answer = (path) =>
    path.includes('ndata')
      ? ok({ data: points(100) })
      : path.includes('periodic/')
        ? ok({ data: points(10_000), truncated: true })
        : path.includes('newest')
          ? ok({ state_data: periods(50) })
          : ok({ state_data: periods(30), truncated: false });
});
afterEach(cleanup);

const rows = () => screen.getAllByTestId('history-row');
const hidden = (label: string) =>
  screen
    .getByText(label, { selector: 'label' })
    .parentElement!.querySelector<HTMLInputElement>('input[aria-hidden="true"]')!;

describe('the Data dialog', () => {
  it('pages the latest values 25 at a time with the shared pager labels', async () => {
    render(<DataDialog series={series} onClose={() => {}} />);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: T.deviceData.latestCount }));
    fireEvent.click(await screen.findByRole('option', { name: '100' }));
    await waitFor(() => expect(screen.getByText(T.table.displayedRows(1, 25, 100))).toBeTruthy());
    expect(rows()).toHaveLength(25);
    expect(screen.getByText(T.table.rowsPerPage)).toBeTruthy();
    act(() => screen.getByRole('button', { name: /next page/i }).click());
    expect(screen.getByText(T.table.displayedRows(26, 50, 100))).toBeTruthy();
  });
  it('says when the server kept only the newest values of a long range', async () => {
    render(<DataDialog series={series} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('tab', { name: T.deviceData.timeTab }));
    expect(await screen.findByTestId('history-truncated')).toHaveProperty(
      'textContent',
      T.deviceData.truncated(10_000),
    );
    expect(api.calls.at(-1)!.path).toBe('/fetch/web/device/periodic/{id}');
  });
  it('shows "Waktu akhir harus setelah waktu awal" under akhir and asks nothing when the end is before the start', async () => {
    render(<DataDialog series={series} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('tab', { name: T.deviceData.timeTab }));
    await screen.findByTestId('history-truncated');
    const before = api.calls.length;
    fireEvent.change(hidden(T.deviceData.end), { target: { value: '01/01/2020 00:00:00' } });
    expect(await screen.findByText(T.deviceData.rangeOrder)).toBeTruthy();
    expect(api.calls.length).toBe(before);
    expect(screen.queryByText(T.deviceData.noData)).toBeNull();
  });
  it('says why when the values could not be read, instead of an empty table', async () => {
    const unavailable = {
      code: 503,
      headers: {},
      text: 'Service Unavailable',
      body: { response_result: -50, message: 'Penyimpanan tidak tersedia' },
    };
    api.answer = () => unavailable;
    const said = T.deviceData.historyFailed(T.common.serverDown);
    render(<DataDialog series={series} onClose={() => {}} />);
    expect((await screen.findByTestId('history-failed')).textContent).toBe(said);
    expect(screen.queryByText(T.deviceData.noData)).toBeNull();
    cleanup();
    render(<StateDialog deviceId={7} stateKey="mode" onClose={() => {}} />);
    expect((await screen.findByTestId('history-failed')).textContent).toBe(said);
    expect(screen.queryByText(T.deviceData.noData)).toBeNull();
  });
});

describe('the Lihat State dialog', () => {
  it("pages a state's history 25 at a time, newest first, and validates the range like the Data dialog (no swap, no call)", async () => {
    render(<StateDialog deviceId={7} stateKey="mode" onClose={() => {}} />);
    await waitFor(() => expect(screen.getByText(T.table.displayedRows(1, 25, 50))).toBeTruthy());
    expect(within(rows()[0]!).getByText('v50')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: T.deviceData.timeTab }));
    await waitFor(() => expect(screen.getByText(T.table.displayedRows(1, 25, 30))).toBeTruthy());
    const before = api.calls.length;
    fireEvent.change(hidden(T.deviceData.end), { target: { value: '01/01/2020 00:00:00' } });
    expect(await screen.findByText(T.deviceData.rangeOrder)).toBeTruthy();
    expect(api.calls.length).toBe(before);
  });
});

describe('the Download dialog', () => {
  const now = new Date(2025, 2, 31, 10, 0, 0).getTime();
  it('starts one calendar month back (31 March → 28 February) and ends now, 24-hour with seconds', () => {
    expect(monthBack(now)).toBe(new Date(2025, 1, 28, 10, 0, 0).getTime());
    render(<DownloadDialog title="Download" now={now} onClose={() => {}} onDownload={() => {}} />);
    expect(hidden(T.deviceData.start).value).toBe('02/28/2025 10:00:00');
    expect(hidden(T.deviceData.end).value).toBe('03/31/2025 10:00:00');
  });
  it('keeps Simpan disabled with a field error when the end is before the start, and sends the range as entered', () => {
    const onDownload = vi.fn();
    render(<DownloadDialog title="Download" now={now} onClose={() => {}} onDownload={onDownload} />);
    fireEvent.change(hidden(T.deviceData.end), { target: { value: '01/01/2025 00:00:00' } });
    expect(screen.getByText(T.deviceData.rangeOrder)).toBeTruthy();
    expect(screen.getByRole('button', { name: T.common.save })).toHaveProperty('disabled', true);
    fireEvent.change(hidden(T.deviceData.end), { target: { value: '03/31/2025 23:59:59' } });
    fireEvent.click(screen.getByRole('button', { name: T.common.save }));
    expect(onDownload).toHaveBeenCalledWith({
      kind: 'time',
      start: new Date(2025, 1, 28, 10, 0, 0).getTime(),
      end: new Date(2025, 2, 31, 23, 59, 59).getTime(),
    });
  });
});
