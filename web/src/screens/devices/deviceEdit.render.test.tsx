// The device edit screens' save (useDeviceEdit): a success says "Edit Perangkat Sukses" and returns to the list; a
// refusal shows its message and its field errors, and the form stays, usable again.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { T } from '@sentra/contracts';
import { notices } from '../../ui/snackbar/notices.js';
import { CallError } from '../../api/call.js';

const calls = vi.hoisted(() => ({ editDevice: vi.fn(), getDevice: vi.fn() }));
vi.mock('./deviceCalls.js', async (original) => ({ ...(await original<object>()), ...calls }));

const { DeviceEditInfoPage } = await import('./DeviceEditInfoPage.js');

const shown = () => notices.snapshot().map((n) => `${n.level}: ${n.message}`);

function open() {
  render(
    <MemoryRouter initialEntries={['/admin/demo/_device_edit_info_/5']}>
      <Routes>
        <Route path="/admin/:domain/_device_edit_info_/:id" element={<DeviceEditInfoPage />} />
        <Route path="/admin/:domain/_device_list_" element={<p>the list</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  for (const n of notices.snapshot()) notices.dismiss(n.id);
  calls.getDevice.mockResolvedValue({ id: 5, serial_number: 'SN-5', name: 'Pompa', description: '' });
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

describe('saving a device edit', () => {
  it('says "Edit Perangkat Sukses" and returns to the list', async () => {
    calls.editDevice.mockResolvedValue({});
    open();
    const save = await screen.findByRole('button', { name: T.common.save });
    await waitFor(() => expect((save as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(save);
    expect(await screen.findByText('the list')).toBeTruthy();
    expect(calls.editDevice).toHaveBeenCalledWith(expect.objectContaining({ id: 5, name: 'Pompa' }));
    expect(shown()).toContain(`success: ${T.devices.editSuccess}`);
  });

  it("shows the refusal's message and field error, and the form stays usable", async () => {
    calls.editDevice.mockRejectedValue(new CallError('Nama sudah dipakai', { name: 'Nama sudah dipakai' }));
    open();
    const save = await screen.findByRole('button', { name: T.common.save });
    await waitFor(() => expect((save as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(save);
    await waitFor(() => expect(shown()).toContain('error: Nama sudah dipakai'));
    expect(screen.queryByText('the list')).toBeNull();
    expect(screen.getAllByText('Nama sudah dipakai').length).toBeGreaterThan(0);
    await waitFor(() => expect((save as HTMLButtonElement).disabled).toBe(false));
  });
});
