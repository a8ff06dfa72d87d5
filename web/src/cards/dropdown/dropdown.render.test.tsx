// Render tests of the dropdown selector: what a user reads and the variable it sets.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderCard, setUpRenderTests } from '../cards.test-kit.js';
import { useLiveDashboard } from '../../dashboards/live/LiveDashboard.js';

setUpRenderTests();

describe('DROPDOWN_SELECTOR', () => {
  it('sets the dashboard variable; only the cards affected by it are re-queried with it', async () => {
    let selected: { params: { vars?: unknown; keys?: string[] }; keys: ReadonlySet<string> } | undefined;
    function Probe() {
      selected = useLiveDashboard()?.selected as typeof selected;
      return null;
    }
    renderCard('DROPDOWN_SELECTOR', {
      key: 'pilih',
      model: {
        config: {
          variable: 'zona',
          options: [
            { label: 'Zona A', value: 'a' },
            { label: 'Zona B', value: 'b' },
          ],
        },
      },
      view: { title: 'Zona' },
      components: [
        { key: 'pilih', cat: 'DROPDOWN_SELECTOR', x: 0, y: 0, w: 2, h: 1 },
        { key: 'suhu', cat: 'SINGLE_VALUE_CARD', x: 0, y: 1, w: 1, h: 1, model: { affected_by: ['zona'] } },
        { key: 'lampu', cat: 'SINGLE_VALUE_CARD', x: 1, y: 1, w: 1, h: 1, model: { affected_by: ['pilih'] } },
        { key: 'lain', cat: 'SINGLE_VALUE_CARD', x: 2, y: 1, w: 1, h: 1 },
      ],
      extra: <Probe />,
    });
    expect(selected).toBeUndefined();
    const select = await screen.findByRole('combobox');
    fireEvent.mouseDown(select);
    fireEvent.click(within(await screen.findByRole('listbox')).getByText('Zona B'));
    expect(select.textContent).toBe('Zona B');
    expect(selected!.params.vars).toEqual({ zona: 'b' });
    expect([...selected!.keys].sort()).toEqual(['lampu', 'suhu']);
    expect(selected!.params.keys).toEqual(['lampu', 'suhu']);
  });

  it('offers the values of an array variable', async () => {
    renderCard('DROPDOWN_SELECTOR', { key: 'lantai', globals: { lantai: [1, 2, 3] } });
    fireEvent.mouseDown(await screen.findByRole('combobox'));
    expect(
      within(await screen.findByRole('listbox'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['1', '2', '3']);
  });
});
