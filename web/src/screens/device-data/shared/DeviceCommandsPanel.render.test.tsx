// The device screens' commands against a recorded API: what a button sends (the configuration call, the family's
// target) and how the answers read (success, refused -33, offline -30) on the panel's status line and in the notice.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { familyByKey, Result, STATE_CONFIG, STATE_SENSOR, T, type StateRow } from '@sentra/contracts';
import { apiRecorder as api, resetApiRecorder } from '../../../cards/api.test-kit.js';
import { notices } from '../../../ui/snackbar/notices.js';
import { DeviceCommandsPanel } from './DeviceCommandsPanel.js';

vi.mock('../../../api/client.js', async () => (await import('../../../cards/api.test-kit.js')).recordedApiModule());

const C = T.deviceCommands;
const c = T.dashboards.commands;
const state = (key: string, value: unknown): StateRow => ({
  key,
  value,
  is_null: false,
  initial_ts: 1,
  latest_ts: 2,
});
const sent = () => api.calls.filter((x) => x.path === '/fetch/web/device/p/{id}').map((x) => x.input);
const status = () => screen.getByTestId('device-command-status').textContent;
const commandRow = (label: string) =>
  screen.getAllByTestId('device-command').find((el) => el.getAttribute('data-command') === label)!;
const failWith = (code: number, message: string) => () => ({
  code: 400,
  body: { response_result: code, message },
  headers: {},
  text: '',
});

beforeEach(resetApiRecorder);
afterEach(cleanup);

describe("a Tasmota plug's screen", () => {
  const tasmota = familyByKey('tasmota')!.category;

  it('sends POWER TOGGLE to its POWER state and says the plug answered', async () => {
    render(<DeviceCommandsPanel deviceId={7} category={tasmota} states={[state('POWER', 'OFF')]} />);
    const power = commandRow(C.power);
    expect(within(power).getByTestId('device-command-current').textContent).toBe('OFF');
    fireEvent.click(within(power).getByRole('button', { name: C.toggle }));
    await vi.waitFor(() => expect(status()).toBe(`POWER: TOGGLE · ${c.success}`));
    expect(sent()).toEqual([
      { id: 7, sensor: STATE_SENSOR, configtype: STATE_CONFIG, param: 'POWER', value: 'TOGGLE' },
    ]);
    expect(notices.snapshot().map((n) => n.message)).toEqual([c.success]);
  });

  it('sends TelePeriod as a number within 10..3600 only, and shows a refusal in the flow’s words', async () => {
    api.answer = failWith(-33, T.deviceData.commandRefused);
    render(<DeviceCommandsPanel deviceId={7} category={tasmota} states={[]} />);
    const row = commandRow(C.telePeriod);
    const input = within(row).getByRole('spinbutton', { name: C.telePeriod });
    const send = within(row).getByRole('button', { name: C.send }) as HTMLButtonElement;
    fireEvent.change(input, { target: { value: '5' } });
    expect(send.disabled).toBe(true);
    fireEvent.change(input, { target: { value: '300' } });
    fireEvent.click(send);
    await vi.waitFor(() => expect(status()).toBe(`TelePeriod: 300 · ${c.failed} ${c.refused}`));
    expect(sent()).toEqual([{ id: 7, sensor: 'system', configtype: 'config', param: 'TelePeriod', value: 300 }]);
  });
});

describe("a meter's screen (generic MQTT)", () => {
  it('switches its breaker state between open and closed; an offline meter says so', async () => {
    api.answer = failWith(Result.DEVICE_OFFLINE, T.deviceData.commandOffline);
    render(
      <DeviceCommandsPanel
        deviceId={9}
        category={familyByKey('mqtt')!.category}
        states={[state('breaker', 'closed'), state('firmware', '1.2')]}
      />,
    );
    expect(screen.getAllByTestId('device-command')).toHaveLength(1);
    fireEvent.click(within(commandRow(C.switchOf('breaker'))).getByRole('button', { name: 'open' }));
    await vi.waitFor(() => expect(status()).toBe(`breaker: open · ${c.failed} ${c.offline}`));
    expect(sent()).toEqual([
      { id: 9, sensor: STATE_SENSOR, configtype: STATE_CONFIG, param: 'breaker', value: 'open' },
    ]);
  });

  it('says where to change things when the device has neither fixed commands nor a switch', () => {
    render(<DeviceCommandsPanel deviceId={9} category={familyByKey('mqtt')!.category} states={[]} />);
    expect(screen.getByText(C.none)).toBeTruthy();
  });
});
