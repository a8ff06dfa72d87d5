// The shared date-time field: spec 03 section 9's MM/DD/YYYY HH:mm:ss, 24-hour with seconds, whatever the browser's
// locale; a date-only format in another locale for the dashboard's command cards.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render } from '@testing-library/react';
import { DateTimeField, type DateTimeLocale } from './DateTimeField.js';

afterEach(cleanup);

const hidden = (c: HTMLElement) => c.querySelector<HTMLInputElement>('input[aria-hidden="true"]')!;
/** The field labelled "Tanggal" showing `value` in `format` (and `locale`, `min` when given); its container. */
const shown = (value: number, format: string, more: { locale?: DateTimeLocale; min?: number } = {}) =>
  render(<DateTimeField label="Tanggal" format={format} value={value} onChange={() => {}} {...more} />).container;

describe('DateTimeField', () => {
  it('shows an afternoon time as 14:30:15, not 2:30 PM', () => {
    const { container } = render(
      <DateTimeField label="awal" value={new Date(2024, 4, 1, 14, 30, 15).getTime()} onChange={() => {}} />,
    );
    expect(hidden(container).value).toBe('05/01/2024 14:30:15');
    expect(container.textContent).not.toMatch(/PM|AM/);
  });
  it('answers the epoch ms of a complete entry, null once emptied', () => {
    const onChange = vi.fn();
    const { container } = render(<DateTimeField label="akhir" value={null} onChange={onChange} />);
    fireEvent.change(hidden(container), { target: { value: '12/31/2024 23:59:58' } });
    expect(onChange).toHaveBeenLastCalledWith(new Date(2024, 11, 31, 23, 59, 58).getTime());
  });
  it("writes a date-only format in the card's locale ('DD MMM YYYY', id)", () => {
    expect(hidden(shown(new Date(2024, 4, 1).getTime(), 'DD MMM YYYY', { locale: 'id' })).value).toBe('01 Mei 2024');
  });
  it("names the months as the cards do (id-ID 'Agu', not dayjs's 'Agt')", () => {
    const container = shown(new Date(2024, 7, 17, 9, 5).getTime(), 'DD MMM YYYY HH:mm', { locale: 'id' });
    expect(hidden(container).value).toBe('17 Agu 2024 09:05');
  });
  it('marks a value before `min` as an error', () => {
    const container = shown(new Date(2024, 0, 1).getTime(), 'DD MMM YYYY', { min: new Date(2024, 5, 1).getTime() });
    expect(container.querySelector('.Mui-error')).not.toBeNull();
  });
});
