// A selection tree for the editor tests, shaped as `nav/device/devices` and `nav/device/sensors` answer.
import type { SelectionSource } from './selectionSource.js';

const meter = {
  voltage: { r: 220, s: 221, t: 219 },
  current: { r: 1.2, s: 1.1, t: 1.3 },
  energy: 1000,
};
export const TEST_SOURCE: SelectionSource = {
  devices: {
    dev1: { pm: { meter, info: { fw: 'v1' } }, env: { dht: { temp: 30, hum: 70 } } },
    dev2: { relay: { out: { pump: true } } },
  },
  devices_label: { dev1: 'Panel A', dev2: 'Pompa' },
  sensors: { pm: { meter } },
  tags: ['gedung_a', 'gedung_b'],
};
