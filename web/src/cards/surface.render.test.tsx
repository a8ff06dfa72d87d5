// The card in the view grid: live data through the dashboard's feed, and errors kept on the card they belong to.
import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import { CARD_LIVE, T } from '@sentra/contracts';
import { CardSurface } from './CardSurface.js';
import { createLiveHub, type LiveTransport } from '../live/hub.js';
import type { CardComponent } from './common/definition.js';
import { LiveDashboard, joinDashboardEarly, useCardData } from '../dashboards/live/LiveDashboard.js';
import { setUpRenderTests } from './cards.test-kit.js';
import { CardsReadOnly } from './common/readOnly.js';

setUpRenderTests();

function liveTransport() {
  let handler: ((p: unknown) => void) | undefined;
  const t: LiveTransport & { push(key: string, data: Record<string, unknown>): void; subscriptions: number } = {
    subscriptions: 0,
    subscribe: async () => (t.subscriptions++, 'room1'),
    unsubscribe: () => undefined,
    on: (event, fn) => {
      if (event === CARD_LIVE.event) handler = fn;
      return () => undefined;
    },
    onReconnect: () => () => undefined,
    push: (key, data) =>
      handler?.({ room: 'room1', dashboard_id: 9, key, mode: 'full', data: { key, cat: 'X', success: true, ...data } }),
  };
  return t;
}

const card = (key: string, cat: string, extra: Partial<CardComponent> = {}): CardComponent => ({
  key,
  cat,
  x: 0,
  y: 0,
  w: 1,
  h: 1,
  ...extra,
});
const cardEl = (key: string) =>
  screen.getAllByTestId('dashboard-card').find((e) => e.getAttribute('data-key') === key)!;

describe('<CardSurface> in a live dashboard', () => {
  it('joined as the record arrives: the cards rendered later take over that subscription and its first frames', async () => {
    const t = liveTransport();
    const hub = createLiveHub(t);
    const filter = { kind: 'filter', key: 'today', name: 'Hari ini' } as const;
    joinDashboardEarly(9, filter, hub);
    await vi.waitFor(() => expect(t.subscriptions).toBe(1));
    // the gateway's first frame comes before the grid renders
    t.push('ok', { value: 229.5 });
    await new Promise((r) => setTimeout(r, 10));
    const c = card('ok', 'SINGLE_VALUE_CARD', { view: { type: 'VOLT', title: 'Tegangan' } });
    render(
      <LiveDashboard dashboardId={9} filter={filter} components={[c]} hub={hub}>
        <CardSurface component={c} h={2} dashboardId={9} />
      </LiveDashboard>,
    );
    await vi.waitFor(() => expect(within(cardEl('ok')).getByText(/229,5/)).toBeTruthy());
    expect(t.subscriptions).toBe(1);
    expect(hub.size()).toBe(1);
  });

  it('draws every card from one shared subscription, and an error stays on its card', async () => {
    const t = liveTransport();
    const hub = createLiveHub(t);
    const cards = [
      card('ok', 'SINGLE_VALUE_CARD', { view: { type: 'VOLT', title: 'Tegangan' } }),
      card('badconf', 'SINGLE_VALUE_CARD', { view: { type: 'NOPE' } }),
      card('badquery', 'SINGLE_VALUE_CARD'),
      card('throws', 'SINGLE_VALUE_CARD'),
      card('unknown', 'NO_SUCH_CARD'),
      card('judul', 'TITLE', { view: { title: 'Panel Utama' } }),
    ];
    render(
      <LiveDashboard dashboardId={9} components={cards} hub={hub}>
        {cards.map((c) => (
          <CardSurface key={c.key} component={c} h={2} dashboardId={9} />
        ))}
      </LiveDashboard>,
    );
    await vi.waitFor(() => expect(t.subscriptions).toBe(1));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await act(async () => {
      t.push('ok', { value: 229.5 });
      t.push('badquery', { success: false, alert: T.cards.deviceNotFound });
      t.push('throws', {
        value: {
          toJSON() {
            throw new Error('nilai rusak');
          },
        },
      });
      t.push('judul', {});
    });
    await vi.waitFor(() => expect(within(cardEl('ok')).getByTestId('card-value').textContent).toBe('229,50 V'), {
      timeout: 8000,
    });
    expect(within(cardEl('ok')).getByTestId('card-title').textContent).toBe('Tegangan');
    expect(within(cardEl('badconf')).getByTestId('card-error').textContent).toContain(T.cards.invalidComponent);
    expect(within(cardEl('badquery')).getByTestId('card-error').textContent).toContain(T.cards.deviceNotFound);
    await vi.waitFor(() =>
      expect(within(cardEl('throws')).getByTestId('card-error').textContent).toContain('nilai rusak'),
    );
    expect(within(cardEl('unknown')).getByTestId('card-error').textContent).toContain(
      T.cardViews.unknownType('NO_SUCH_CARD'),
    );
    expect(within(cardEl('judul')).getByText('Panel Utama')).toBeTruthy();

    // the healthy card keeps living
    act(() => t.push('ok', { value: 231 }));
    await vi.waitFor(() => expect(within(cardEl('ok')).getByTestId('card-value').textContent).toBe('231,00 V'));
  });

  it('a card mounting after its first frame came renders with it at once, never in its loading state', async () => {
    const t = liveTransport();
    const hub = createLiveHub(t);
    const c = card('ok', 'SINGLE_VALUE_CARD', { view: { type: 'VOLT' } });
    const { rerender } = render(
      <LiveDashboard dashboardId={9} components={[c]} hub={hub}>
        {null}
      </LiveDashboard>,
    );
    await vi.waitFor(() => expect(t.subscriptions).toBe(1));
    await act(async () => {
      t.push('ok', { value: 229.5 });
      await new Promise((r) => setTimeout(r, 20));
    });
    const firstRender: unknown[] = [];
    function Probe() {
      const { state } = useCardData(9, 'ok');
      if (firstRender.length === 0) firstRender.push(state?.data.value);
      return null;
    }
    rerender(
      <LiveDashboard dashboardId={9} components={[c]} hub={hub}>
        <Probe />
        <CardSurface component={c} h={2} dashboardId={9} />
      </LiveDashboard>,
    );
    expect(firstRender).toEqual([229.5]);
    expect(within(cardEl('ok')).getByTestId('card-value').textContent).toBe('229,50 V');
  });
});

describe('<CardSurface> where cards must not act (edit layout, editor preview)', () => {
  it('draws data its screen hands over (no feed), an inert body, and the menu in its title line', async () => {
    const t = liveTransport();
    const hub = createLiveHub(t);
    const c = card('baru', 'SINGLE_VALUE_CARD', { view: { type: 'VOLT', title: 'Tegangan baru' } });
    const given = {
      state: {
        data: { key: 'baru', cat: 'SINGLE_VALUE_CARD', success: true, value: 231.25 },
        frame: 1,
        seq: 0,
        appends: [],
        receivedAt: 0,
      },
    };
    render(
      <LiveDashboard dashboardId={9} components={[c]} hub={hub}>
        <CardsReadOnly.Provider value={true}>
          <CardSurface
            component={c}
            h={2}
            dashboardId={9}
            given={given}
            actions={<button type="button">menu</button>}
          />
        </CardsReadOnly.Provider>
      </LiveDashboard>,
    );
    await vi.waitFor(() => expect(within(cardEl('baru')).getByText(/231,25/)).toBeTruthy());
    expect(within(cardEl('baru')).getByTestId('card-title').textContent).toBe('Tegangan baru');
    expect(within(cardEl('baru')).getByTestId('card-body').hasAttribute('inert')).toBe(true);
    expect(within(cardEl('baru')).getByRole('button', { name: 'menu' })).toBeTruthy();
    // the given data is not asked of the dashboard's channel for this card
    t.push('baru', { value: 1 });
    await new Promise((r) => setTimeout(r, 20));
    expect(within(cardEl('baru')).getByText(/231,25/)).toBeTruthy();
  });

  it('shows its loading state while the screen has no data yet', async () => {
    const c = card('baru', 'SINGLE_VALUE_CARD', { view: { type: 'VOLT', title: 'Tegangan baru' } });
    render(<CardSurface component={c} h={2} dashboardId={9} given={{}} />);
    await vi.waitFor(() => expect(within(cardEl('baru')).getByTestId('card-loading')).toBeTruthy());
    expect(within(cardEl('baru')).getByTestId('card-body').hasAttribute('inert')).toBe(false);
  });
});
