// Walks the family table: every family has its calls, a category number, an activation kind the server implements,
// and every path of spec 03 section 7 exists exactly once in the route table.
import { describe, expect, it } from 'vitest';
import { allCalls, deviceFamilies, deviceFamilyCalls, type ActivationKind } from '@sentra/contracts';
import { familyBehaviours } from './index.js';

const KINDS: ActivationKind[] = ['none', 'token', 'uid', 'lora', 'mqtt', 'tasmota', 'plugin', 'cloud'];
const behaviours = familyBehaviours({} as Parameters<typeof familyBehaviours>[0]);

describe('the device family table', () => {
  it.each(deviceFamilies.map((f) => [f.key, f] as const))(
    '%s has add, remove, sensors and get calls, a category number and an activation kind',
    (_k, f) => {
      const calls = deviceFamilyCalls[f.key];
      expect(f.variants.length).toBeGreaterThan(0);
      for (const v of f.variants) {
        expect(calls.adds[v.key]!.path).toMatch(/^\/service\/web\/device\/.+\/add$/);
        expect(calls.adds[v.key]!.timeoutMs).toBe(f.addTimeoutMs);
        expect(v.deviceType).toMatch(/^[A-Z0-9_]+$/);
      }
      expect(calls.remove.path).toMatch(/\/remove$/);
      expect(calls.sensors.path).toMatch(/\/edit\/sensors$/);
      expect(calls.get.path).toMatch(/\/get\/id\/\{id\}$/);
      expect(f.category).toBeGreaterThanOrEqual(1);
      expect(KINDS).toContain(f.activation);
      expect(behaviours[f.activation]).toBeDefined();
      if (f.activation === 'uid') {
        expect(calls.check?.path).toMatch(/^\/service\/web\/device\/provision\/[a-z]+\/check$/);
        expect(Object.keys(f.info)).toContain(f.uidField);
      }
    },
  );
  it('numbers the families 1 to 12 (docs/conventions.md "Codes of the domain")', () => {
    expect(deviceFamilies.map((f) => [f.category, f.code])).toEqual([
      [1, 'dum/node'],
      [2, 'k/end'],
      [3, 'l/node'],
      [4, 'z/node'],
      [5, 'ui/node'],
      [6, 'b/node'],
      [7, 'friendcom/node'],
      [8, 'mqtt/node'],
      [9, 'tasmota/node'],
      [10, 'io'],
      [11, 'emma'],
      [12, 'imouc'],
    ]);
  });
  it('declares every device path of spec 03 section 7, each once in the route table', () => {
    const paths = allCalls().map((c) => `${c.method} ${c.path}`);
    expect(new Set(paths).size).toBe(paths.length);
    const d = (p: string) => `/service/web/device/${p}`;
    const spec = [
      ...['mqtt', 'tasmota', 'ui', 'z', 'b', 'friendcom'].map((c) => `GET ${d(`${c}/node/get/id/{id}`)}`),
      ...['io', 'emma', 'imouc'].map((c) => `GET ${d(`${c}/get/id/{id}`)}`),
      ...[
        'k/end',
        'l/node',
        'dum/node',
        'mqtt/node',
        'tasmota/node',
        'z/node',
        'ui/node',
        'b/node',
        'friendcom/node',
        'io',
        'emma',
        'imouc',
      ].map((c) => `POST ${d(`${c}/edit/sensors`)}`),
      ...[
        'l/node',
        'z/node',
        'mqtt/node',
        'tasmota/node',
        'ui/node',
        'b/node',
        'friendcom/node',
        'io',
        'emma',
        'imouc',
        'k/end',
        'dum/node',
      ].map((c) => `POST ${d(`${c}/remove`)}`),
      ...[
        'dum/node',
        'mqtt/node',
        'tasmota/node',
        'z/node',
        'ui/node',
        'b/node',
        'friendcom/node',
        'k/end',
        'io/industrial',
        'io/mini',
        'io/sensor',
        'io/android',
        'emma',
        'imouc',
      ].map((c) => `POST ${d(`${c}/add`)}`),
      ...['k/gen', 'k/check', 'z/check', 'ui/check', 'b/check'].map((c) => `POST ${d(`provision/${c}`)}`),
      `GET ${d('list/web/filter')}`,
      `GET ${d('get/id/{id}')}`,
      `POST ${d('edit')}`,
      `GET ${d('emma/plugin/application/list')}`,
      'POST /service/web/application/nav/add/dum',
    ];
    expect(spec.filter((p) => !paths.includes(p))).toEqual([]);
  });
  it('gives the add time-outs of spec 03 section 7', () => {
    const t = (key: keyof typeof deviceFamilyCalls) => Object.values(deviceFamilyCalls[key].adds)[0]!.timeoutMs / 1000;
    expect([
      t('dummy'),
      t('mqtt'),
      t('tasmota'),
      t('zlan'),
      t('usrIot'),
      t('bivocom'),
      t('friendcom'),
      t('sentraEnd'),
      t('sentraGateway'),
      t('emma'),
      t('imou'),
    ]).toEqual([30, 30, 30, 180, 180, 180, 180, 180, 60, 120, 60]);
  });
});
