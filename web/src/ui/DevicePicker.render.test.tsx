// The shared device picker against a recorded API: it asks the server (device/pick) as the user types, and a device
// is chosen with the keyboard (ArrowDown, Enter); a held device is named by one `ids` call.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { T, type DeviceChoice } from '@sentra/contracts';
import { apiRecorder as api, resetApiRecorder } from '../cards/api.test-kit.js';
import { DevicePicker, DevicesPicker } from './DevicePicker.js';

vi.mock('../api/client.js', async () => (await import('../cards/api.test-kit.js')).recordedApiModule());

const device = (id: number, name: string): DeviceChoice => ({
  id,
  name,
  label: name,
  serial_number: `SN-${String(id).padStart(5, '0')}`,
  category: 1,
  deviceType: 'DUMMY',
  online: false,
});
/** 301 devices; the gateway's search is imitated: name or serial containing the text, one page of 20 */
const FLEET = Array.from({ length: 301 }, (_, i) =>
  device(i + 1, i === 149 ? 'Panel Listrik 00150' : `Meter ${String(i + 1).padStart(5, '0')}`),
);
const searches = () => api.calls.filter((c) => c.path === '/service/web/device/pick').map((c) => c.input);

beforeEach(() => {
  resetApiRecorder();
  api.answer = () => {
    const input = api.calls.at(-1)!.input as { search?: string; ids?: number[]; size: number };
    const text = (input.search ?? '').toLowerCase();
    const found = FLEET.filter(
      (d) =>
        (!input.ids || input.ids.includes(d.id)) &&
        (d.name.toLowerCase().includes(text) || d.serial_number.toLowerCase().includes(text)),
    );
    return {
      code: 200,
      body: { response_result: 0, devices: found.slice(0, input.size), total: found.length, page: 0, size: input.size },
      headers: {},
      text: 'OK',
    };
  };
});
afterEach(cleanup);

describe('the device picker', () => {
  it('shows one page of the whole application and says how many more there are', async () => {
    render(<DevicePicker label="Perangkat" value={undefined} onChange={() => undefined} />);
    fireEvent.focus(screen.getByRole('combobox', { name: 'Perangkat' }));
    expect(await screen.findAllByTestId('device-option')).toHaveLength(20);
    expect(screen.getByTestId('device-picker-more').textContent).toBe(T.common.moreDevices(20, 301));
    expect(searches()[0]).toEqual({ size: 20 });
  });

  it('searches the server as the user types and picks the match with ArrowDown and Enter', async () => {
    const onChange = vi.fn();
    render(<DevicePicker label="Perangkat" value={undefined} onChange={onChange} />);
    const input = screen.getByRole('combobox', { name: 'Perangkat' });
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'listrik 001' } });
    await vi.waitFor(() => expect(screen.getAllByTestId('device-option')).toHaveLength(1));
    expect(searches().at(-1)).toEqual({ search: 'listrik 001', size: 20 });
    expect(within(screen.getByTestId('device-option')).getByText('SN-00150 · #150')).toBeTruthy();
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onChange).toHaveBeenCalledWith('150', FLEET[149]);
  });

  it('names a held device it has not seen with one ids call, and a removed one by its id', async () => {
    const { rerender } = render(<DevicePicker label="Perangkat" value="288" onChange={() => undefined} />);
    await vi.waitFor(() =>
      expect((screen.getByRole('combobox', { name: 'Perangkat' }) as HTMLInputElement).value).toBe('Meter 00288'),
    );
    expect(searches()).toEqual([{ ids: [288], size: 50 }]);
    rerender(<DevicePicker label="Perangkat" value="9999" onChange={() => undefined} />);
    await vi.waitFor(() =>
      expect((screen.getByRole('combobox', { name: 'Perangkat' }) as HTMLInputElement).value).toBe('#9999'),
    );
  });

  it('holds several devices as chips (the Visualisasi devices field)', async () => {
    const onChange = vi.fn();
    render(<DevicesPicker label="Perangkat" value={['2']} onChange={onChange} />);
    await screen.findByText('Meter 00002');
    const input = screen.getByRole('combobox', { name: 'Perangkat' });
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: '00150' } });
    await vi.waitFor(() => expect(screen.getAllByTestId('device-option')).toHaveLength(1));
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onChange).toHaveBeenCalledWith(['2', '150']);
  });
});
