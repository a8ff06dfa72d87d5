// Render tests of the control cards: what they show and what they send (the API is replaced by a recorder).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Result, T, type CardTypeCode } from '@sentra/contracts';
import { cardElement, renderCard, setUpRenderTests } from '../cards.test-kit.js';
import { apiRecorder as api, noticeMessages as messages, resetApiRecorder } from '../api.test-kit.js';
import { CardsReadOnly } from '../common/readOnly.js';

vi.mock('../../api/client.js', async () => (await import('../api.test-kit.js')).recordedApiModule());

const c = T.dashboards.commands;
setUpRenderTests();
beforeEach(resetApiRecorder);

const sent = () => api.calls.filter((x) => x.path === '/fetch/web/p/{dashboardId}/{componentKey}').map((x) => x.input);

describe.each([['BUTTON_CARD'], ['BUTTON_TAGS_CARD'], ['BUTTON_CUSTOM_CARD']] as [CardTypeCode][])('%s', (cat) => {
  it("shows its status line and the 'Kirim' button, and sends its id", async () => {
    renderCard(cat, {
      key: 'pompa',
      w: 1,
      data: {
        status: 'ON',
        value: 'ON',
        time: Date.now(),
        enable: true,
        devices: cat.includes('TAGS') ? [1, 2, 3] : undefined,
      },
    });
    const button = await screen.findByTestId('command-send');
    expect(button.textContent).toBe(c.send);
    expect(screen.getByTestId('command-status').textContent).toBe('ON');
    fireEvent.click(button);
    if (cat.includes('TAGS')) {
      expect(screen.getByText(T.cardViews.devicesTargeted(3))).toBeTruthy();
      fireEvent.click(await screen.findByTestId('command-confirm'));
    }
    await vi.waitFor(() => expect(sent()).toEqual([{ dashboardId: 1, componentKey: 'pompa' }]));
    await vi.waitFor(() => expect(screen.getByTestId('command-status').textContent).toBe(c.success));
    expect(messages()).toContain(c.success);
  });
});

// What the gateway sends a command card (cards/cardData.ts fillCommand): the raw reading as status and value, its time
// and whether the target device is online; the card prints it with the single value card's display rules.
const reading = (status: unknown) => ({ status, value: status, time: Date.now(), enable: true });
const statusText = () => screen.getByTestId('command-status').textContent;

describe.each([
  ['BUTTON_CARD'],
  ['INPUT_NUMBER_CARD'],
  ['INPUT_TEXT_CARD'],
  ['INPUT_DATE_CARD'],
  ['INPUT_DATE_RANGE_CARD'],
] as [CardTypeCode][])('%s status line', (cat) => {
  it("prints a number as the single value card does: id-ID, k/M/B/T, the dashboard's 2 decimals", async () => {
    renderCard(cat, { data: reading(1234.567) });
    await screen.findByTestId('command-send');
    expect(statusText()).toBe('1,23k');
  });

  it("prints with the card's own decimals, full number and unit", async () => {
    renderCard(cat, { view: { decimal: 1, full_number: true, unit: 'L' }, data: reading(1234.567) });
    await screen.findByTestId('command-send');
    expect(statusText()).toBe('1.234,6 L');
    cleanup();
    renderCard(cat, { view: { unit: 'Rp', unit_front: true, decimal: 0 }, data: reading(2_500_000) });
    await screen.findByTestId('command-send');
    expect(statusText()).toBe('Rp 3M');
  });

  it('prints a boolean as ON/OFF, numeric text as a number, and other text as it came', async () => {
    for (const [status, text] of [
      [true, T.cardViews.on],
      [false, T.cardViews.off],
      ['999.995', '1,00k'],
      ['siaga', 'siaga'],
    ] as const) {
      cleanup();
      renderCard(cat, { data: reading(status) });
      await screen.findByTestId('command-send');
      expect(statusText()).toBe(text);
    }
    expect([T.cardViews.on, T.cardViews.off]).toEqual(['ON', 'OFF']);
  });
});

describe.each([['INPUT_TOGGLE_CARD'], ['INPUT_TOGGLE_TAGS_CARD']] as [CardTypeCode][])('%s status line', (cat) => {
  it.each([
    [true, 'ON'],
    [false, 'OFF'],
    [1, 'ON'],
    [0, 'OFF'],
    ['ON', 'ON'],
    ['off', 'OFF'],
  ] as const)('says what the switch says for a status of %o (%s)', async (status, word) => {
    renderCard(cat, { data: reading(status) });
    const toggle = await screen.findByTestId('command-toggle');
    expect(statusText()).toBe(word);
    expect(screen.getByTestId('toggle-state').textContent).toBe(word);
    expect(toggle.getAttribute('data-checked')).toBe(word === 'ON' ? 'true' : 'false');
  });
});

describe.each([
  [Result.DEVICE_OFFLINE, 'Kirim perintah gagal (perangkat sedang offline)'],
  [Result.DEVICE_BUSY, 'Kirim perintah gagal (perangkat sibuk)'],
  [Result.DEVICE_TIMEOUT, 'Kirim perintah gagal (timeout)'],
])('a command answered %s', (code, text) => {
  it(`shows '${text}'`, async () => {
    api.answer = () => ({
      code: 400,
      body: { response_result: code, message: text },
      headers: {},
      text: 'Bad Request',
    });
    renderCard('BUTTON_CARD', { data: {} });
    fireEvent.click(await screen.findByTestId('command-send'));
    await vi.waitFor(() => expect(screen.getByTestId('command-status').textContent).toBe(text));
    expect(messages()).toContain(text);
  });
});

describe.each([['INPUT_NUMBER_CARD'], ['INPUT_NUMBER_TAGS_CARD'], ['INPUT_NUMBER_CUSTOM_CARD']] as [CardTypeCode][])(
  '%s',
  (cat) => {
    it('sends the id and a value between min 0 and max 100', async () => {
      renderCard(cat, { data: {} });
      const input = (await screen.findByTestId('command-input')) as HTMLInputElement;
      expect([input.min, input.max, input.value]).toEqual(['0', '100', '0']);
      fireEvent.change(input, { target: { value: '150' } });
      expect((screen.getByTestId('command-send') as HTMLButtonElement).disabled).toBe(true);
      fireEvent.change(input, { target: { value: '42.5' } });
      fireEvent.click(screen.getByTestId('command-send'));
      if (cat.includes('TAGS')) fireEvent.click(await screen.findByTestId('command-confirm'));
      await vi.waitFor(() => expect(sent()).toEqual([{ dashboardId: 1, componentKey: 'card1', value: 42.5 }]));
    });
  },
);

describe.each([['INPUT_TEXT_CARD'], ['INPUT_TEXT_TAGS_CARD'], ['INPUT_TEXT_CUSTOM_CARD']] as [CardTypeCode][])(
  '%s',
  (cat) => {
    it('limits the text to 30 characters and sends it', async () => {
      renderCard(cat, { data: {} });
      const input = (await screen.findByTestId('command-input')) as HTMLInputElement;
      expect(input.maxLength).toBe(30);
      fireEvent.change(input, { target: { value: 'x'.repeat(40) } });
      expect(input.value).toHaveLength(30);
      fireEvent.click(screen.getByTestId('command-send'));
      if (cat.includes('TAGS')) fireEvent.click(await screen.findByTestId('command-confirm'));
      await vi.waitFor(() => expect(sent()[0]?.value).toBe('x'.repeat(30)));
    });
  },
);

describe.each([['INPUT_TOGGLE_CARD'], ['INPUT_TOGGLE_TAGS_CARD'], ['INPUT_TOGGLE_CUSTOM_CARD']] as [CardTypeCode][])(
  '%s',
  (cat) => {
    it("shows the device's state and sends the flipped value", async () => {
      renderCard(cat, { data: { status: 'OFF' } });
      const toggle = await screen.findByTestId('command-toggle');
      expect(toggle.getAttribute('data-checked')).toBe('false');
      expect(screen.getByTestId('toggle-state').textContent).toBe(T.cardViews.off);
      fireEvent.click(toggle.querySelector('input')!);
      if (cat.includes('TAGS')) fireEvent.click(await screen.findByTestId('command-confirm'));
      await vi.waitFor(() => expect(sent()[0]?.value).toBe(true));
    });
  },
);

describe('INPUT_TOGGLE_CARD on a Tasmota plug (status: the POWER state)', () => {
  it('keeps the requested state after success until the plug reports, then shows what it reports', async () => {
    const view = renderCard('INPUT_TOGGLE_CARD', { data: { status: 'OFF', value: 'OFF' } });
    const toggle = await screen.findByTestId('command-toggle');
    fireEvent.click(toggle.querySelector('input')!);
    await vi.waitFor(() => expect(screen.getByTestId('command-status').textContent).toBe(c.success));
    // the call answered before the state's push: no flicker back to OFF
    expect(toggle.getAttribute('data-checked')).toBe('true');
    expect(screen.getByTestId('toggle-state').textContent).toBe(T.cardViews.on);
    view.rerender(cardElement('INPUT_TOGGLE_CARD', { data: { status: 'ON', value: 'ON' } }));
    expect(toggle.getAttribute('data-checked')).toBe('true');
    // a later report wins (the plug was switched off at the wall)
    view.rerender(cardElement('INPUT_TOGGLE_CARD', { data: { status: 'OFF', value: 'OFF' } }));
    expect(toggle.getAttribute('data-checked')).toBe('false');
    expect(screen.getByTestId('toggle-state').textContent).toBe(T.cardViews.off);
  });
});

/** A date field's input once its chunk has loaded: the MUI X picker's hidden input holds the text the field shows. */
async function dateInput(testId: string): Promise<HTMLInputElement> {
  return vi.waitFor(
    () => {
      const input = screen.getByTestId(testId).querySelector<HTMLInputElement>('input[aria-hidden="true"]');
      if (!input) throw new Error(`${testId}: the date field is still loading`);
      return input;
    },
    { timeout: 5000 },
  );
}
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'Mei', 'Jun', 'Jul', 'Agu', 'Sep', 'Okt', 'Nov', 'Des'];
const two = (n: number) => String(n).padStart(2, '0');
/** 09:30 three days from now: a date the cards accept */
const later = () => {
  const at = new Date(Date.now() + 3 * 86400_000);
  at.setHours(9, 30, 0, 0);
  return at;
};
const sentDate = (at: Date, time = '09:30:00') =>
  `${two(at.getDate())}-${two(at.getMonth() + 1)}-${at.getFullYear()} ${time}`;

describe('INPUT_DATE_CARD', () => {
  it("writes the date as 'DD MMM YYYY HH:mm' in id-ID, refuses dates before yesterday and sends 'DD-MM-YYYY HH:mm:ss'", async () => {
    renderCard('INPUT_DATE_CARD', { data: {} });
    const input = await dateInput('command-input');
    fireEvent.change(input, { target: { value: '01 Jan 2020 10:00' } });
    expect(screen.getByText(T.cardViews.dateTooEarly)).toBeTruthy();
    expect((screen.getByTestId('command-send') as HTMLButtonElement).disabled).toBe(true);
    const at = later();
    const text = `${two(at.getDate())} ${months[at.getMonth()]} ${at.getFullYear()} 09:30`;
    fireEvent.change(input, { target: { value: text } });
    expect(input.value).toBe(text);
    expect(screen.queryByText(T.cardViews.dateTooEarly)).toBeNull();
    fireEvent.click(screen.getByTestId('command-send'));
    await vi.waitFor(() => expect(sent()[0]?.value).toBe(sentDate(at)));
  });
  it('an emptied date sends nothing and says so', async () => {
    renderCard('INPUT_DATE_CARD', { data: {} });
    fireEvent.change(await dateInput('command-input'), { target: { value: '' } });
    expect(screen.getByText(T.cardViews.dateMissing)).toBeTruthy();
    expect((screen.getByTestId('command-send') as HTMLButtonElement).disabled).toBe(true);
  });
  it('shows no AM/PM: 14:05 stays 14:05', async () => {
    renderCard('INPUT_DATE_CARD', { data: {} });
    const input = await dateInput('command-input');
    const at = later();
    const text = `${two(at.getDate())} ${months[at.getMonth()]} ${at.getFullYear()} 14:05`;
    fireEvent.change(input, { target: { value: text } });
    expect(input.value).toBe(text);
    fireEvent.click(screen.getByTestId('command-send'));
    await vi.waitFor(() => expect(sent()[0]?.value).toBe(sentDate(at, '14:05:00')));
  });
});

describe.each([['INPUT_DATE_CARD'], ['INPUT_DATE_RANGE_CARD']] as [CardTypeCode][])('%s date formats', (cat) => {
  const at = later();
  const dd = two(at.getDate());
  /** types `text` (the date 09:30 three days from now in the view's format) and answers what the card shows and sends */
  const entered = async (view: Record<string, unknown>, text: string, nextYear: string) => {
    cleanup();
    api.calls.length = 0;
    renderCard(cat, { view, data: {} });
    if (cat === 'INPUT_DATE_RANGE_CARD') {
      fireEvent.change(await dateInput('command-end'), { target: { value: nextYear } });
      fireEvent.change(await dateInput('command-start'), { target: { value: text } });
      return screen.getByTestId('date-range-label').textContent!.split(' – ')[0];
    }
    const input = await dateInput('command-input');
    fireEvent.change(input, { target: { value: text } });
    fireEvent.click(screen.getByTestId('command-send'));
    await vi.waitFor(() => expect(sent()[0]?.value).toBe(sentDate(at)));
    return input.value;
  };

  it('writes the chosen date format with the time format, and a format that carries a time only once', async () => {
    const y = at.getFullYear();
    const plain = (year: number) => `${dd} ${months[at.getMonth()]} ${year} 09:30`;
    expect(await entered({}, plain(y), plain(y + 1))).toBe(plain(y));
    const slashes = (year: number) => `${dd}/${two(at.getMonth() + 1)}/${year} 09:30:00`;
    expect(await entered({ date_format: 'DD/MM/YYYY', time_format: 'HH:mm:ss' }, slashes(y), slashes(y + 1))).toBe(
      slashes(y),
    );
    // a view stored with a chart format that has its own time (the editor offered those before)
    const chart = (year: number) => `09:30, ${dd} ${months[at.getMonth()]} ${two(year % 100)}`;
    expect(await entered({ date_format: 'HH:mm, DD MMM YY', time_format: 'HH:mm' }, chart(y), chart(y + 1))).toBe(
      chart(y),
    );
  });
});

describe('INPUT_DATE_RANGE_CARD', () => {
  it('starts with about two days from now and sends start and end', async () => {
    renderCard('INPUT_DATE_RANGE_CARD', { data: {} });
    await dateInput('command-start');
    await dateInput('command-end');
    fireEvent.click(screen.getByTestId('command-send'));
    await vi.waitFor(() => expect(sent()).toHaveLength(1));
    const { start, end } = sent()[0]!.value as { start: string; end: string };
    const ms = (s: string) => {
      const [d, t] = s.split(' ');
      const [dd, mm, yyyy] = d!.split('-').map(Number);
      const [h, m, sec] = t!.split(':').map(Number);
      return new Date(yyyy!, mm! - 1, dd!, h!, m!, sec!).getTime();
    };
    expect(Math.round((ms(end) - ms(start)) / 3600_000)).toBe(48);
  });
  it('an end before the start is refused', async () => {
    renderCard('INPUT_DATE_RANGE_CARD', { data: {} });
    const at = later();
    fireEvent.change(await dateInput('command-end'), {
      target: { value: `${two(at.getDate())} ${months[at.getMonth()]} ${at.getFullYear()} 09:30` },
    });
    fireEvent.change(await dateInput('command-start'), {
      target: { value: `${two(at.getDate())} ${months[at.getMonth()]} ${at.getFullYear()} 10:30` },
    });
    expect(screen.getByTestId('date-range-label').textContent).toBe(T.cardViews.rangeInvalid);
    expect((screen.getByTestId('command-send') as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('a command card where cards must not act (the edit layout, the editor preview)', () => {
  it.each([['BUTTON_CARD'], ['INPUT_TOGGLE_CARD'], ['INPUT_NUMBER_CARD']] as [CardTypeCode][])(
    '%s shows its controls disabled and sends nothing',
    async (cat) => {
      render(
        <CardsReadOnly.Provider value={true}>
          {cardElement(cat, {
            key: 'pompa',
            w: 1,
            data: { status: 'ON', value: 'ON', time: Date.now(), enable: true },
          })}
        </CardsReadOnly.Provider>,
      );
      const fence = await screen.findByTestId('command-readonly');
      expect((fence as HTMLFieldSetElement).disabled).toBe(true);
      // a click that reaches the control anyway (fireEvent ignores inert and disabled fieldsets) still sends nothing
      const control = cat === 'INPUT_TOGGLE_CARD' ? screen.getByRole('switch') : screen.getByTestId('command-send');
      fireEvent.click(control);
      await new Promise((r) => setTimeout(r, 50));
      expect(sent()).toEqual([]);
      expect(screen.getByTestId('command-status').textContent).toBe('ON');
    },
  );
});
