// The dashboard form's rules (spec 02 section 5 "Dashboard"): name and refresh required, refresh 0 or ≥ 500,
// decimals 0–5, variables as a JSON object; an edit keeps the stored components.
import { describe, expect, it } from 'vitest';
import { T } from '@sentra/contracts';
import { EMPTY_FORM, formBody, formValuesOf } from './dashboardForm.js';

const f = T.dashboards.form;

describe('the dashboard form', () => {
  it('requires the name and the refresh rate', () => {
    expect(formBody({ ...EMPTY_FORM, refresh: '' })).toEqual({
      ok: false,
      errors: { label: f.nameRequired, refresh: f.refreshRequired },
    });
  });
  it('refuses a refresh between 1 and 499 with the spec message', () => {
    expect(formBody({ ...EMPTY_FORM, label: 'A', refresh: '200' })).toEqual({
      ok: false,
      errors: { refresh: f.refreshMin },
    });
    expect(formBody({ ...EMPTY_FORM, label: 'A', refresh: '500' }).ok).toBe(true);
  });
  it('refuses variables that are not a JSON object, and invalid variables with the schema message', () => {
    expect(formBody({ ...EMPTY_FORM, label: 'A', variables: '[1]' })).toMatchObject({
      ok: false,
      errors: { variables: T.dashboards.screens.variablesInvalid },
    });
    expect(formBody({ ...EMPTY_FORM, label: 'A', variables: '{"a b": "x"}' })).toMatchObject({
      ok: false,
      errors: { variables: T.dashboards.variables.keyNoSpaces },
    });
  });
  it('builds a version 2 conf_dashboard, custom URL dashboards included', () => {
    const out = formBody({
      ...EMPTY_FORM,
      label: ' Energi ',
      decimals: 3,
      customUrl: 'https://contoh.id',
      variables:
        '{"periode": {"_varType": "filter", "id": "periode", "name": "Hari ini", "type": "PERIODIC", "range": "TODAY"}}',
    });
    expect(out).toMatchObject({
      ok: true,
      body: {
        label: 'Energi',
        parent: null,
        conf_dashboard: {
          version: '2',
          type: 'custom_url',
          custom_url: 'https://contoh.id',
          view: { decimal: 3 },
          config: { refresh: 0 },
          dashboard: {},
        },
      },
    });
  });
  it('keeps the stored components and extra fields on edit', () => {
    const stored = {
      id: 1,
      label: 'A',
      desc: '',
      parent: 4,
      path: 'a',
      conf_dashboard: {
        version: '2',
        config: { refresh: 0 },
        dashboard: { c: { key: 'c', cat: 'TITLE', x: 0, y: 0, w: 4, h: 1 } },
      },
    };
    const values = formValuesOf(stored);
    expect(values).toMatchObject({ label: 'A', parent: '4', refresh: '0', decimals: 2, customUrl: '' });
    const out = formBody({ ...values, refresh: '1000' }, stored);
    expect(out).toMatchObject({
      ok: true,
      body: { parent: 4, conf_dashboard: { config: { refresh: 1000 }, dashboard: { c: { cat: 'TITLE' } } } },
    });
  });
});
