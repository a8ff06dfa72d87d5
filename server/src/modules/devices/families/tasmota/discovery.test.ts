import { describe, expect, it } from 'vitest';
import { applyDiscovery, discoveryTopic, MAX_DISCOVERY_BYTES } from './discovery.js';

const MAC = 'A4CF12ABCDEF';
const config = (extra: Record<string, unknown> = {}) =>
  Buffer.from(
    JSON.stringify({
      ip: '10.0.0.5',
      dn: 'Tasmota',
      fn: ['Pompa', null],
      hn: 'tasmota-ABCDEF-1',
      mac: MAC,
      md: 'Sonoff Basic',
      sw: '14.3.0',
      t: 'pompa',
      rl: [1, 0],
      ver: 1,
      ...extra,
    }),
  );

describe('Tasmota discovery', () => {
  it('reads the config and sensors messages the firmware publishes under its MAC', () => {
    expect(discoveryTopic(`tasmota/discovery/${MAC}/config`)).toEqual({ mac: MAC, kind: 'config' });
    expect(discoveryTopic('tasmota/discovery/a4cf12abcdef/config')).toBeUndefined();
    expect(discoveryTopic(`tasmota/discovery/${MAC}/config/x`)).toBeUndefined();
    const first = applyDiscovery(null, `tasmota/discovery/${MAC}/config`, config());
    expect(first).toEqual({
      mac: MAC,
      ip: '10.0.0.5',
      hostname: 'tasmota-ABCDEF-1',
      model: 'Sonoff Basic',
      version: '14.3.0',
      relays: [1, 0],
      friendly_names: ['Pompa', null],
      sensors: {},
    });
    const both = applyDiscovery(
      first!,
      `tasmota/discovery/${MAC}/sensors`,
      Buffer.from('{"sn":{"Time":"2026-01-01T00:00:00","ENERGY":{"Power":7}},"ver":1}'),
    );
    expect(both).toMatchObject({ mac: MAC, relays: [1, 0], sensors: { ENERGY: { Power: 7 } } });
  });

  it("clears on empty retained messages, and ignores what is not the firmware's shape", () => {
    const full = applyDiscovery(
      applyDiscovery(null, `tasmota/discovery/${MAC}/config`, config())!,
      `tasmota/discovery/${MAC}/sensors`,
      Buffer.from('{"sn":{"A":{"b":1}}}'),
    )!;
    const noConfig = applyDiscovery(full, `tasmota/discovery/${MAC}/config`, Buffer.alloc(0));
    expect(noConfig).toMatchObject({ mac: null, relays: [], sensors: { A: { b: 1 } } });
    expect(applyDiscovery(noConfig!, `tasmota/discovery/${MAC}/sensors`, Buffer.alloc(0))).toBeNull();
    for (const junk of ['not json', '[1,2]', '"x"', JSON.stringify({ mac: '001122334455' })]) {
      expect(applyDiscovery(full, `tasmota/discovery/${MAC}/config`, Buffer.from(junk)), junk).toBeUndefined();
    }
    expect(applyDiscovery(full, `tasmota/discovery/${MAC}/sensors`, Buffer.from('{"sn":5}'))).toBeUndefined();
    expect(
      applyDiscovery(full, `tasmota/discovery/${MAC}/config`, Buffer.alloc(MAX_DISCOVERY_BYTES + 1, 0x20)),
    ).toBeUndefined();
    // long texts and relay lists are capped; relays that are not integers read as none
    const capped = applyDiscovery(
      null,
      `tasmota/discovery/${MAC}/config`,
      config({ md: 'm'.repeat(500), rl: [...Array(40).fill(1), 'x'] }),
    )!;
    expect(capped.model).toHaveLength(64);
    expect(capped.relays).toHaveLength(32);
  });
});
