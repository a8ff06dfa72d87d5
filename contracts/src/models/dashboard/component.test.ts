import { describe, expect, it } from 'vitest';
import { T } from '../../text/id.js';
import { Component } from './component.js';
import { EXAMPLE_COMPONENTS } from './examples.js';
import { rejection } from './testing.js';

const t = T.dashboards;
const card = (key: keyof typeof EXAMPLE_COMPONENTS, patch: Record<string, unknown> = {}) => ({
  ...structuredClone(EXAMPLE_COMPONENTS[key]),
  ...patch,
});
const withValue = (key: string, value: Record<string, unknown>) => {
  const c = card(key) as any;
  c.model = { ...c.model, value };
  return c;
};
const series = { device_id: 'dev1', sensor: 'pm', config: 'meter', param: 'voltage' };

describe('component key', () => {
  it(`rejects an empty key with "${t.component.keyRequired}"`, () => {
    expect(rejection(Component, card('voltage', { key: '' }))[0]).toEqual({
      path: 'key',
      message: t.component.keyRequired,
    });
  });
  it(`rejects a key with a space with "${t.component.keyNoSpaces}"`, () => {
    expect(rejection(Component, card('voltage', { key: 'tegangan r' }))).toEqual([
      { path: 'key', message: t.component.keyNoSpaces },
    ]);
  });
  it('rejects a key of more than 30 characters', () => {
    expect(rejection(Component, card('voltage', { key: 'k'.repeat(31) }))).toEqual([
      { path: 'key', message: T.common.max(30) },
    ]);
  });
  it('rejects a key that does not start with a letter', () => {
    expect(rejection(Component, card('voltage', { key: '1card' }))).toEqual([
      { path: 'key', message: t.component.keyPattern },
    ]);
  });
});

describe('component category, position and size', () => {
  it('rejects an unknown card type code', () => {
    expect(rejection(Component, card('voltage', { cat: 'GAUGE_CARD' }))).toEqual([
      { path: 'cat', message: t.component.unknownType },
    ]);
  });
  it.each(['x', 'y', 'w', 'h'])('needs %s ("Saving needs a category, a position and a size")', (field) => {
    const c = card('voltage') as any;
    delete c[field];
    expect(rejection(Component, c)[0].path).toBe(field);
  });
  it('keeps a card inside the 4 columns', () => {
    expect(rejection(Component, card('trend', { x: 3 }))).toEqual([{ path: 'x', message: t.component.outsideGrid }]);
  });
  it('rejects a list card narrower than 2 (list and graph cards: width at least 2)', () => {
    expect(rejection(Component, card('fleet', { w: 1 }))).toEqual([{ path: 'w', message: t.component.tooSmall(2, 4) }]);
  });
  it('rejects a graph card lower than 4 grid rows (stored heights are halved: at least 2)', () => {
    expect(rejection(Component, card('trend', { h: 1.5 }))).toEqual([
      { path: 'h', message: t.component.tooSmall(2, 4) },
    ]);
  });
  it('rejects a three-phase card lower than 4 grid rows', () => {
    expect(rejection(Component, card('phases', { h: 1 }))[0].path).toBe('h');
  });
  it('rejects a dropdown selector narrower than 2', () => {
    expect(rejection(Component, card('site', { w: 1 }))[0].path).toBe('w');
  });
  it('keeps the title card at height 1 (not doubled)', () => {
    expect(rejection(Component, card('title', { h: 2 }))[0].path).toBe('h');
  });
  it('fixes the download card at width 1, height 2 (stored height 1)', () => {
    const download = { key: 'csv', cat: 'DOWNLOAD_DATA_CARD', x: 0, y: 0, w: 1, h: 1 };
    expect(Component.safeParse(download).success).toBe(true);
    expect(rejection(Component, { ...download, w: 2 })[0].path).toBe('w');
  });
  it('rejects unknown component fields', () => {
    expect(rejection(Component, card('voltage', { wdth: 3 }))[0].path).toBe('');
  });
  it(`rejects a component refresh of 100 with "${t.form.refreshMin}"`, () => {
    expect(rejection(Component, card('voltage', { config: { refresh: 100 } }))).toEqual([
      { path: 'config.refresh', message: t.form.refreshMin },
    ]);
  });
});

describe('component model', () => {
  it(`rejects a map card without latitude "${t.component.latitudeRequired}" or longitude "${t.component.longitudeRequired}"`, () => {
    expect(rejection(Component, card('sites', { model: {} }))).toEqual([
      { path: 'model.latitude', message: t.component.latitudeRequired },
      { path: 'model.longitude', message: t.component.longitudeRequired },
    ]);
  });
  it('offers a three-phase card LATEST only', () => {
    expect(rejection(Component, withValue('phases', { query: 'AVG', queryType: 'device', ...series }))).toEqual([
      { path: 'model.value.query', message: t.component.queryNotOffered },
    ]);
  });
  it('offers chart cards no LATEST', () => {
    expect(rejection(Component, withValue('trend', { query: 'LATEST', queryType: 'graph', ...series }))[0]).toEqual({
      path: 'model.value.query',
      message: t.component.queryNotOffered,
    });
  });
  it('rejects a query function paired with another query type than its card kind gives it', () => {
    expect(rejection(Component, withValue('voltage', { query: 'LATEST', queryType: 'graph', ...series }))[0].path).toBe(
      'model.value.query',
    );
  });
  it(`rejects an incomplete selection with "${t.component.incomplete}"`, () => {
    const { param: _p, ...noParam } = series;
    expect(rejection(Component, withValue('voltage', { query: 'LATEST', queryType: 'device', ...noParam }))).toEqual([
      { path: 'model.value.param', message: t.component.incomplete },
    ]);
  });
  it('rejects a stored _no_subparam_ placeholder', () => {
    expect(
      rejection(
        Component,
        withValue('voltage', { query: 'LATEST', queryType: 'device', ...series, subparam: '_no_subparam_' }),
      ),
    ).toEqual([{ path: 'model.value.subparam', message: t.component.incomplete }]);
  });
  it('needs the three subparams of Data 1, 2 and 3 on a three-phase card', () => {
    expect(
      rejection(
        Component,
        withValue('phases', { query: 'LATEST', queryType: 'three_phase', ...series, subparam: ['r', 's'] }),
      ),
    ).toEqual([{ path: 'model.value.subparam', message: t.component.incomplete }]);
  });
  it('drops empty tags', () => {
    const parsed = Component.parse(
      card('fleet', { model: { ...(EXAMPLE_COMPONENTS.fleet.model as object), tags: ['a', '', ' '] } }),
    );
    expect(parsed.model?.tags).toEqual(['a']);
  });
  it('accepts a single-value card whose view type is a unit code, and rejects another', () => {
    expect(rejection(Component, card('voltage', { view: { type: 'VOLTS' } }))).toEqual([
      { path: 'view.type', message: T.common.invalidInput },
    ]);
  });
  it("falls back to 'auto' for a non-numeric graph y-axis min or max", () => {
    const parsed = Component.parse(card('trend', { view: { graph_yaxis_min: 'abc', graph_yaxis_max: '15' } }));
    expect(parsed.view).toMatchObject({ graph_yaxis_min: 'auto', graph_yaxis_max: 15 });
  });
});
