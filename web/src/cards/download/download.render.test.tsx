// Render tests of the download card: what it shows and the CSV it saves (the API is replaced by a recorder).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { T, cardCsvFileName } from '@sentra/contracts';
import { renderCard, setUpRenderTests } from '../cards.test-kit.js';
import { apiRecorder as api, noticeMessages as messages, resetApiRecorder } from '../api.test-kit.js';

vi.mock('../../api/client.js', async () => (await import('../api.test-kit.js')).recordedApiModule());

const c = T.dashboards.commands;
setUpRenderTests();
beforeEach(resetApiRecorder);

describe('DOWNLOAD_DATA_CARD', () => {
  it("says 'Download sedang dilakukan' while it reads the card's CSV (120 s at most), and no longer once saved", async () => {
    let answer!: (a: unknown) => void;
    api.answer = () => new Promise((resolve) => (answer = resolve));
    const created: string[] = [];
    URL.createObjectURL = () => (created.push('blob'), 'blob:x');
    URL.revokeObjectURL = () => undefined;
    renderCard('DOWNLOAD_DATA_CARD', { key: 'unduh', w: 1, model: { value: { query: 'AVG', queryType: 'graph' } } });
    const button = await screen.findByTestId('download-send');
    await act(async () => fireEvent.click(button));
    expect(messages()).toContain(c.downloading);
    await act(async () => answer({ code: 200, body: 'ts,value\n', headers: {}, text: 'OK' }));
    await vi.waitFor(() => expect(created).toHaveLength(1));
    expect(messages()).not.toContain(c.downloading);
    expect(api.calls[0]).toMatchObject({
      path: '/fetch/web/file/csv/card/{dashboardId}/{componentKey}',
      input: { dashboardId: 1, componentKey: 'unduh' },
      opts: { responseType: 'text' },
    });
  });

  it.each([
    ['graph', 'Chart_unduh_'],
    ['device', 'Data_unduh_'],
  ])('saves the CSV of a %s query as %s plus the key and the local YYYYMMDD_HHmmss', async (queryType, prefix) => {
    api.answer = () => ({ code: 200, body: 'ts,value\n', headers: {}, text: 'OK' });
    URL.createObjectURL = () => 'blob:x';
    URL.revokeObjectURL = () => undefined;
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    renderCard('DOWNLOAD_DATA_CARD', { key: 'unduh', w: 1, model: { value: { query: 'AVG', queryType } } });
    const before = new Date();
    await act(async () => fireEvent.click(await screen.findByTestId('download-send')));
    await vi.waitFor(() => expect(names).toHaveLength(1));
    click.mockRestore();
    const stamp = (d: Date) =>
      `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}_${String(d.getHours()).padStart(2, '0')}${String(d.getMinutes()).padStart(2, '0')}${String(d.getSeconds()).padStart(2, '0')}`;
    expect(names[0]).toMatch(new RegExp(`^${prefix}\\d{8}_\\d{6}\\.csv$`));
    expect(names[0]! >= `${prefix}${stamp(before)}.csv`).toBe(true);
  });

  it('names the file by the one rule of contracts (the gateway names its download the same)', () => {
    const at = new Date(2024, 5, 7, 8, 9, 10).getTime();
    expect(cardCsvFileName('energi', { value: { queryType: 'graph' } }, at)).toBe('Chart_energi_20240607_080910.csv');
    expect(cardCsvFileName('energi', { value: { queryType: 'device' } }, at)).toBe('Data_energi_20240607_080910.csv');
    expect(cardCsvFileName('energi', undefined, Date.UTC(2024, 5, 7, 23, 9, 10), 'Asia/Jakarta')).toBe(
      'Data_energi_20240608_060910.csv',
    );
  });
});
