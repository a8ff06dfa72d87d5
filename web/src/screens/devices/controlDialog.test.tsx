import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { T } from '@sentra/contracts';
import { ControlDialog } from './DeviceListDialogs.js';
import { REBOOT_COMMAND } from './bulkActions.js';

afterEach(cleanup);

const devices = [
  { id: 1, name: 'Pompa 1', serial_number: 'SN-1' },
  { id: 2, name: 'Pompa 2', serial_number: 'SN-2' },
] as never[];

/** The dialog for the two devices, nothing sent yet, with `props` over that. */
const open = (props: Partial<Parameters<typeof ControlDialog>[0]>) =>
  render(
    <ControlDialog
      open
      action={T.devices.bulkCommand}
      devices={devices}
      busy={false}
      outcomes={null}
      onClose={() => undefined}
      onSend={() => undefined}
      {...props}
    />,
  );

describe('"Kontrol device" (bulk Reboot / Kirim command)', () => {
  it('sends the pre-filled Reboot command, parsed, for the chosen devices', () => {
    const onSend = vi.fn();
    open({ action: T.devices.bulkReboot, initial: REBOOT_COMMAND, onSend });
    expect(screen.getByTestId('control-devices').textContent).toContain('SN-2');
    fireEvent.click(screen.getByRole('button', { name: T.devices.controlSend }));
    expect(onSend).toHaveBeenCalledWith({ sensor: 'system', configtype: 'command', param: 'reboot', value: 1 });
  });
  it('refuses an empty command with the fields named, sending nothing', () => {
    const onSend = vi.fn();
    open({ onSend });
    fireEvent.click(screen.getByRole('button', { name: T.devices.controlSend }));
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getAllByText(T.deviceData.inputError).length).toBeGreaterThan(0);
  });
  it("shows each device's outcome with the reason of a failure", () => {
    open({
      outcomes: [
        { device: devices[0] as never, ok: true },
        { device: devices[1] as never, ok: false, reason: T.deviceData.commandOffline },
      ],
    });
    const list = within(screen.getByTestId('control-devices'));
    expect(list.getByText(T.devices.bulkOk)).toBeTruthy();
    expect(list.getByText(T.devices.bulkFailed(T.deviceData.commandOffline))).toBeTruthy();
  });
});
