// "Key required, at most 30 characters: 'Key tidak boleh kosong'. Config must be valid JSON: 'Konfigurasi harus dalam
// bentuk JSON yang benar'."
import { describe, expect, it } from 'vitest';
import { Component, T } from '@sentra/contracts';
import { configText, manualComponent, newComponentConfig, withComponent } from './manualComponent.js';

describe('the manual component form', () => {
  it('requires a key of at most 30 characters', () => {
    expect(manualComponent({ key: ' ', config: '{}' })).toEqual({
      ok: false,
      errors: { key: T.dashboards.component.manualKeyRequired },
    });
    expect(manualComponent({ key: 'k'.repeat(31), config: '{}' })).toEqual({
      ok: false,
      errors: { key: T.common.max(30) },
    });
  });
  it('requires the configuration to be a JSON object', () => {
    for (const config of ['{', '[1]', '"x"', ''])
      expect(manualComponent({ key: 'a', config })).toEqual({
        ok: false,
        errors: { config: T.dashboards.component.invalidJson },
      });
  });
  it('gives the component with its key, which replaces one with the same key', () => {
    const out = manualComponent({
      key: 'suhu',
      config: '{"cat": "TITLE", "x": 0, "y": 0, "w": 4, "h": 1, "key": "lain"}',
    });
    expect(out).toEqual({ ok: true, key: 'suhu', component: { cat: 'TITLE', x: 0, y: 0, w: 4, h: 1, key: 'suhu' } });
    const conf = withComponent({ version: '2', dashboard: { suhu: { old: true } } }, 'suhu', {
      key: 'suhu',
      cat: 'TITLE',
    });
    expect(conf.dashboard).toEqual({ suhu: { key: 'suhu', cat: 'TITLE' } });
  });
  it('starts a new component as a valid single value card under the others', () => {
    const text = newComponentConfig({ dashboard: { a: { key: 'a', cat: 'LINE_CHART_CARD', x: 0, y: 0, w: 2, h: 2 } } });
    expect(JSON.parse(text).y).toBe(4);
    expect(Component.safeParse({ ...JSON.parse(text), key: 'baru' }).success).toBe(true);
    expect(JSON.parse(configText({ key: 'a', cat: 'TITLE' }))).toEqual({ cat: 'TITLE' });
  });
});
