import { describe, expect, it } from 'vitest';
import { T } from '@sentra/contracts';
import { newComponentEditor } from './componentEditor.js';
import { PREVIEW_KEY, previewOf } from './preview.js';
import { LATEST_ENERGY, runEditor } from './editor.test-kit.js';

const run = runEditor;
const latest = LATEST_ENERGY;

describe("the component editor's preview", () => {
  it('asks for a card type before anything else', () => {
    expect(previewOf(newComponentEditor())).toEqual({
      kind: 'message',
      message: T.dashboards.editor.previewChooseType,
      incomplete: false,
    });
  });
  it("shows the spec's message while the card's query is incomplete (a param with children is reported empty)", () => {
    const p = previewOf(
      run([
        { type: 'changeKey', key: 'energi' },
        { type: 'chooseCategory', category: 'Single Value' },
      ]),
    );
    expect(p).toEqual({ kind: 'message', message: 'Masih ada data yang tidak lengkap!', incomplete: true });
  });
  it('previews the card as configured, with its query, view and variables', () => {
    const p = previewOf(
      run([
        { type: 'changeKey', key: 'energi' },
        { type: 'chooseCategory', category: 'Single Value' },
        { type: 'setQuery', role: 'value', query: latest },
        { type: 'setView', view: { title: 'Energi Panel' } },
        { type: 'setVariable', key: 'faktor', value: 2 },
      ]),
    );
    expect(p.kind).toBe('card');
    if (p.kind !== 'card') return;
    expect(p.component).toMatchObject({
      key: 'energi',
      cat: 'SINGLE_VALUE_CARD',
      model: { value: latest },
      view: { title: 'Energi Panel' },
      var: { faktor: 2 },
    });
  });
  it('does not wait for what only the save needs: a key, a position, a valid size', () => {
    const p = previewOf(
      run([
        { type: 'chooseCategory', category: 'Single Value' },
        { type: 'setQuery', role: 'value', query: latest },
        { type: 'changeKey', key: '1 salah' },
        { type: 'changePosition', position: { x: '', y: 'a', w: '0', h: '' } },
        { type: 'changeRefresh', refresh: '' },
      ]),
    );
    expect(p.kind).toBe('card');
    if (p.kind !== 'card') return;
    expect(p.component.key).toBe(PREVIEW_KEY);
    expect(p.component.w).toBeGreaterThanOrEqual(1);
    expect(p.component.h).toBeGreaterThanOrEqual(1);
  });
});
