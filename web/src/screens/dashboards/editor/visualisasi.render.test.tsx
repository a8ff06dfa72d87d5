// The Visualisasi dialog (issue 38): the title, unit and icon lead the form; the preview beside it is drawn from what
// the form holds at every keystroke; an icon is picked from a grid of named icons (or a picture address is typed).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { T } from '@sentra/contracts';
import { VisualisasiDialog, fieldOrder } from './VisualisasiDialog.js';
import { viewFieldsOf } from './viewFields.js';
import { PICKER_ICONS } from './IconPicker.js';
import { ICONS } from '../../../cards/common/icons.js';

afterEach(cleanup);
const v = T.dashboards.view;

function open(view: Record<string, unknown> = { title: 'Daya total' }) {
  const onSave = vi.fn();
  render(
    <VisualisasiDialog
      cat="SINGLE_VALUE_CARD"
      view={view}
      preview={(draft) => (
        <div data-testid="drawn">
          {String(draft.title ?? '')}|{String(draft.unit ?? '')}|{String(draft.pict ?? '')}
        </div>
      )}
      onSave={onSave}
      onClose={() => undefined}
    />,
  );
  return { onSave };
}

describe('the Visualisasi dialog', () => {
  it('puts the title, the unit and the icon first', () => {
    expect(
      fieldOrder(viewFieldsOf('SINGLE_VALUE_CARD'))
        .map((s) => s.name)
        .slice(0, 3),
    ).toEqual(['title', 'unit', 'pict']);
  });

  it('draws the preview from the form at every keystroke, and saves what it shows', () => {
    const { onSave } = open();
    expect(screen.getByTestId('drawn').textContent).toBe('Daya total||');
    fireEvent.change(screen.getByRole('textbox', { name: v.title }), { target: { value: 'Daya panel' } });
    expect(screen.getByTestId('drawn').textContent).toBe('Daya panel||');
    fireEvent.change(screen.getByRole('textbox', { name: v.unit }), { target: { value: 'kVA' } });
    fireEvent.click(screen.getByRole('button', { name: v.iconNames.bolt }));
    expect(screen.getByTestId('drawn').textContent).toBe('Daya panel|kVA|bolt');
    fireEvent.click(screen.getByRole('button', { name: T.common.save }));
    expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ title: 'Daya panel', unit: 'kVA', pict: 'bolt' }));
  });

  it('offers every icon once, named in Indonesian; "Otomatis" clears it; a picture address replaces it', () => {
    open({ title: 'x', pict: 'meter' });
    expect(new Set(PICKER_ICONS.map((n) => ICONS[n])).size).toBe(PICKER_ICONS.length);
    for (const name of PICKER_ICONS) expect(v.iconNames[name], name).toBeTruthy();
    expect(screen.getByRole('button', { name: v.iconNames.meter }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: v.iconAuto }));
    expect(screen.getByTestId('drawn').textContent).toBe('x||');
    fireEvent.change(screen.getByRole('textbox', { name: v.iconAddress }), { target: { value: '/ikon/pompa.png' } });
    expect(screen.getByTestId('drawn').textContent).toBe('x||/ikon/pompa.png');
    expect(screen.getByRole('button', { name: v.iconNames.meter }).getAttribute('aria-pressed')).toBe('false');
  });
});
