// The data detail row's dialogs as a user meets them (spec 03 sections 2.5, 5, 8): Policy and Penanda never offer
// Simpan over stored values they could not read; Penanda takes multi-value tags like the device editor (Tab, Enter,
// space; messages while typing) and sends an unticked checkbox as false; Ubah Konfigurasi warns about bad JSON and
// closes on success; a list-only role is offered only what it may do.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { apiRecorder as api } from '../../cards/api.test-kit.js';
import { T, type DeviceDataRow, type TagCategory } from '@sentra/contracts';
import { notices } from '../../ui/snackbar/notices.js';

vi.mock('../../api/client.js', async () => (await import('../../cards/api.test-kit.js')).recordedApiModule());

const { PolicyDialog } = await import('./PolicyDialog.js');
const { SensorTagsDialog } = await import('./SensorTagsDialog.js');
const { ConfigDialog } = await import('./ConfigDialog.js');
const { sensorMenuKinds } = await import('./DeviceDataDetailPage.js');

const ok = (body: object) => ({ code: 200, headers: {}, text: 'OK', body: { response_result: 0, ...body } });
const down = {
  code: 500,
  headers: {},
  text: 'Internal Server Error',
  body: { response_result: -99, message: 'Terjadi kesalahan' },
};
const categories: TagCategory[] = [
  { id: 1, name: 'Lokasi', prefix: 'lokasi', category: 4, category_text: 'non-single', definitions: [] },
  { id: 2, name: 'Aktif', prefix: 'aktif', category: 3, category_text: 'checkbox', definitions: [] },
  {
    id: 3,
    name: 'Zona',
    prefix: 'zona',
    category: 1,
    category_text: 'single',
    definitions: [{ name: 'Utara', name_lc: 'utara', prefix: 'zona' }],
  },
];
const sent = (path: string) => api.calls.filter((c) => c.path === path).map((c) => c.input);
const messages = () => notices.snapshot().map((n) => n.message);

beforeEach(() => {
  api.calls.length = 0;
  for (const n of notices.snapshot()) notices.dismiss(n.id);
});
afterEach(cleanup);

describe('Policy', () => {
  it('shows the load error and keeps Simpan disabled when the stored policies cannot be read', async () => {
    api.answer = () => down;
    render(<PolicyDialog deviceId={7} sensorKey="s.config.v" onClose={() => {}} />);
    expect((await screen.findByTestId('load-failed')).textContent).toBe(T.deviceData.loadFailed(T.common.serverDown));
    expect(screen.getByRole('button', { name: T.common.save })).toHaveProperty('disabled', true);
  });
});

describe('Penanda (Edit Perangkat)', () => {
  it('shows the load error and keeps Simpan disabled when the stored tags cannot be read', async () => {
    api.answer = (path) => (path.includes('tags/get') ? down : ok({ categories }));
    render(<SensorTagsDialog deviceId={7} sensorKey="s.config.v" onClose={() => {}} />);
    expect(await screen.findByTestId('load-failed')).toBeTruthy();
    expect(screen.getByRole('button', { name: T.common.save })).toHaveProperty('disabled', true);
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
  it('takes multi-value tags separated by space or Enter, says what is wrong while typing, and sends an unticked checkbox as false', async () => {
    api.answer = (path) =>
      path.includes('tags/get')
        ? ok({ tags: { lokasi: ['gudang'] }, device_id: 7, key: 's.config.v' })
        : path.includes('tags/edit')
          ? ok({ tags: {}, device_id: 7, key: 's.config.v' })
          : ok({ categories });
    const onClose = vi.fn();
    render(<SensorTagsDialog deviceId={7} sensorKey="s.config.v" onClose={onClose} />);
    const input = await screen.findByTestId('tag-input-lokasi');
    expect(screen.getByTestId('tags-lokasi').textContent).toBe('gudang');
    fireEvent.change(input, { target: { value: 'Atap' } });
    expect(screen.getByText(T.tags.noCapitals)).toBeTruthy();
    fireEvent.change(input, { target: { value: 'atap' } });
    fireEvent.keyDown(input, { key: ' ' });
    fireEvent.change(input, { target: { value: 'lantai_2' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.getByTestId('tags-lokasi').textContent).toBe('gudangataplantai_2');
    fireEvent.click(screen.getByRole('button', { name: T.common.save }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent('/service/web/device/sensor/tags/edit')).toEqual([
      { device_id: 7, key: 's.config.v', tags: { lokasi: ['gudang', 'atap', 'lantai_2'], aktif: ['false'] } },
    ]);
  });
});

describe('Ubah Konfigurasi', () => {
  const row: DeviceDataRow = {
    sensor: 'hvac',
    configtype: 'config',
    param: 'jadwal',
    datatype: 'object',
    subparam_datatypes: {},
    value: { on: 7 },
    ts: 1,
    data_exist: true,
  };
  it('warns "Konfigurasi harus dalam bentuk JSON yang benar" like the Policy dialog and sends nothing', async () => {
    render(<ConfigDialog deviceId={7} row={row} onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText(T.deviceData.value), { target: { value: '{on: 7' } });
    fireEvent.click(screen.getByRole('button', { name: T.deviceData.send }));
    expect(messages()).toContain(T.devices.sensorsJson);
    expect(api.calls).toEqual([]);
  });
  it('notifies "Konfigurasi berhasil", closes, and hands the new value and the moment the device accepted it to the row', async () => {
    api.answer = () =>
      ok({
        data: {
          id: 'c1',
          device_id: 7,
          sensor: row.sensor,
          configtype: row.configtype,
          param: row.param,
          value: { on: 8 },
          sent_ts: 1_700_000_000_000,
          reply_ts: 1_700_000_000_250,
          reply: { ok: true },
        },
      });
    const onClose = vi.fn();
    const onSent = vi.fn();
    render(<ConfigDialog deviceId={7} row={row} onClose={onClose} onSent={onSent} />);
    fireEvent.change(screen.getByLabelText(T.deviceData.value), { target: { value: '{"on": 8}' } });
    fireEvent.click(screen.getByRole('button', { name: T.deviceData.send }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSent).toHaveBeenCalledWith({ on: 8 }, 1_700_000_000_250);
    expect(messages()).toContain(T.deviceData.configSuccess);
  });
});

describe('the data detail row menu', () => {
  const row = { configtype: 'config' } as DeviceDataRow;
  it('offers a list-only role Lihat Data and Download only', () => {
    expect(sensorMenuKinds(row, false)).toEqual(['data', 'download']);
  });
  it('offers a managing role every entry (Konfigurasi not for measured data rows)', () => {
    expect(sensorMenuKinds(row, true)).toEqual(['data', 'config', 'download', 'policy', 'tags']);
    expect(sensorMenuKinds({ configtype: 'data' } as DeviceDataRow, true)).toEqual([
      'data',
      'download',
      'policy',
      'tags',
    ]);
  });
});
