// The one table of wire families: every device family of the contracts' table that speaks MQTT has exactly one wire
// family, each activation kind and each broker role belongs to exactly one folder, and each family's roles, uplink
// and downlink agree with its category.
import { describe, expect, it } from 'vitest';
import { deviceFamilies } from '@sentra/contracts';
import { familyOf, familyOfRole, WIRE_FAMILIES, WIRE_OF_CATEGORY, type DeviceRole } from './index.js';

const ROLES: DeviceRole[] = ['device', 'token', 'tasmota', 'gateway', 'unclaimedGateway', 'networkServer'];

describe('the wire family table', () => {
  it('gives every MQTT device family one wire protocol and none to the cloud integrations', () => {
    const wires = Object.fromEntries(deviceFamilies.map((f) => [f.key, WIRE_OF_CATEGORY[f.category] ?? null]));
    expect(wires).toEqual({
      dummy: 'generic',
      sentraEnd: 'generic',
      mqtt: 'generic',
      lora: 'lora',
      tasmota: 'tasmota',
      zlan: 'gateway',
      usrIot: 'gateway',
      bivocom: 'gateway',
      friendcom: 'gateway',
      sentraGateway: 'gateway',
      emma: null,
      imou: null,
    });
  });

  it('keys each family by its own wire protocol, with no category, role or activation kind claimed twice', () => {
    const families = Object.entries(WIRE_FAMILIES);
    for (const [wire, f] of families) expect(f.wire).toBe(wire);
    const categories = families.flatMap(([, f]) => f.categories);
    const roles = families.flatMap(([, f]) => f.broker.roles);
    const kinds = families.flatMap(([, f]) => Object.keys(f.registration));
    expect(new Set(categories).size).toBe(categories.length);
    expect([...roles].sort()).toEqual([...ROLES].sort());
    expect(new Set(kinds).size).toBe(kinds.length);
    // each MQTT family's activation kind is its wire family's
    for (const f of deviceFamilies)
      if (familyOf(f.category)) expect(Object.keys(familyOf(f.category)!.registration)).toContain(f.activation);
  });

  it('answers a broker role with the family that speaks for it', () => {
    expect(ROLES.map((r) => familyOfRole(r)?.wire)).toEqual([
      'generic',
      'generic',
      'tasmota',
      'gateway',
      'gateway',
      'lora',
    ]);
  });
});
