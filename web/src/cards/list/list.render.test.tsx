// Render tests of the list cards with fixture payloads (table_data / table_keys).
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { T } from '@sentra/contracts';
import { renderCard, setUpRenderTests } from '../cards.test-kit.js';

setUpRenderTests();

const t0 = new Date(2024, 4, 1, 8, 0, 0).getTime();
const rows = Array.from({ length: 12 }, (_, i) => ({
  device_id: i + 1,
  label: `Meter ${i + 1}`,
  value: 1000 * (i + 1),
  status: i % 3 !== 0,
  time: t0 + i * 60_000,
}));
const table = { table_keys: ['device_id', 'label', 'value', 'status', 'time'], table_data: rows };

const bodyRows = () => within(screen.getByTestId('card-list')).getAllByRole('row').slice(1);

describe('LIST_CARD', () => {
  it('prints each device row with its unit, status and time, paged with the console labels', async () => {
    renderCard('LIST_CARD', { view: { type: 'KWH' }, data: table });
    await screen.findByTestId('card-list');
    const header = within(screen.getByTestId('card-list'))
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(header).toEqual(['ID', 'Perangkat', 'Nilai', 'Status', 'Waktu']);
    const first = within(bodyRows()[0]!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(first).toEqual(['1', 'Meter 1', '1,00k kWh', T.cardViews.offline, '08:00:00, 01 Mei 24']);
    // 300 px body: 6 rows a page
    expect(bodyRows()).toHaveLength(6);
    expect(screen.getByText(T.table.displayedRows(1, 6, 12))).toBeTruthy();
  });

  it("shows the server's alert when no device matches the tags", async () => {
    renderCard('LIST_CARD', {
      data: { table_keys: ['device_id', 'label'], table_data: [], alert: T.dashboards.component.noDataByTags },
    });
    expect(await screen.findByText(T.dashboards.component.noDataByTags)).toBeTruthy();
    expect(screen.getByText(T.cardViews.listEmpty)).toBeTruthy();
  });
});

describe('LIST_CUSTOM_CARD', () => {
  it('keeps only the devices chosen in the card', async () => {
    renderCard('LIST_CUSTOM_CARD', { view: { devices: [2, '5'] }, data: table });
    await screen.findByTestId('card-list');
    expect(bodyRows().map((r) => within(r).getAllByRole('cell')[1]!.textContent)).toEqual(['Meter 2', 'Meter 5']);
  });
});

describe('LIST_TRANSACTION_CARD', () => {
  it('lists the newest first and scrolls instead of paging', async () => {
    renderCard('LIST_TRANSACTION_CARD', { data: table });
    await screen.findByTestId('card-list');
    expect(bodyRows()).toHaveLength(12);
    expect(within(bodyRows()[0]!).getAllByRole('cell')[1]!.textContent).toBe('Meter 12');
    expect(screen.queryByText(T.table.rowsPerPage)).toBeNull();
  });
});

describe('LIST_PAYMENT_CARD', () => {
  it('prints amounts in Rupiah', async () => {
    renderCard('LIST_PAYMENT_CARD', {
      view: { full_number: true, decimal: 0 },
      data: { table_keys: ['label', 'value', 'time'], table_data: [{ label: 'Mesin cuci 1', value: 15000, time: t0 }] },
    });
    await screen.findByTestId('card-list');
    expect(
      within(bodyRows()[0]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Mesin cuci 1', 'Rp 15.000', '08:00:00, 01 Mei 24']);
  });
});
