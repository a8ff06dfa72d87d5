// Render tests of the single cards with fixture payloads: what a user reads.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SINGLE_VALUE_SUBTYPES, T } from '@sentra/contracts';
import { cardElement, renderCard, stubLayout } from './cards.test-kit.js';
import { useLiveDashboard } from '../dashboards/live/LiveDashboard.js';
import { CANVAS_MARKERS_FROM } from './map/markers.js';

beforeAll(() => stubLayout());
afterEach(cleanup);

describe('SINGLE_VALUE_CARD', () => {
  const reading: Record<string, [unknown, string]> = {
    CUSTOM: [42.5, '42,50'],
    AMPERE: [12.345, '12,35 A'],
    HUMIDITY: [71, '71,00 %RH'],
    KW: [3400, '3,40k kW'],
    KWH: [1_234_567, '1,23M kWh'],
    OHM: [220, '220,00 Ω'],
    PERCENTAGE: [87.5, '87,50%'],
    PRESSURE_AIR: [32, '32,00 psi'],
    PRESSURE_WATER: [1.8, '1,80 bar'],
    RUPIAH: [2_500_000, 'Rp 2,50M'],
    TEMP_CELCIUS: [27.3, '27,30 °C'],
    TEMP_FAHRENHEIT: [81.1, '81,10 °F'],
    TEMP_KELVIN: [300.45, '300,45 K'],
    VERSION: ['2.1.0', 'v2.1.0'],
    VOLT: [229.9, '229,90 V'],
    WATT: [1_500_000_000, '1,50B W'],
  };
  it.each(SINGLE_VALUE_SUBTYPES.map((s) => [s.label, s.unit]))('%s (%s) prints its unit', async (_label, unit) => {
    const [value, text] = reading[unit]!;
    renderCard('SINGLE_VALUE_CARD', { view: { type: unit }, data: { value, time: Date.now() } });
    expect((await screen.findByTestId('card-value')).textContent).toBe(text);
  });

  it('puts a custom unit in front, prints the full number and the time it was read', async () => {
    renderCard('SINGLE_VALUE_CARD', { view: { type: 'CUSTOM', unit: 'Rp', unit_front: true, full_number: true, decimal: 0 }, data: { value: 1_234_567, time: new Date(2024, 0, 2, 3, 4, 5).getTime() } });
    expect((await screen.findByTestId('card-value')).textContent).toBe('Rp 1.234.567');
    expect(screen.getByTestId('card-time').textContent).toBe(T.cardViews.updatedAt('03:04:05, 02 Jan 24'));
  });

  it("shows '-' before the device has reported", async () => {
    renderCard('SINGLE_VALUE_CARD', { view: { type: 'VOLT' }, data: { value: null } });
    expect((await screen.findByTestId('card-value')).textContent).toBe('-');
  });
});

describe('SINGLE_IMAGE_CARD', () => {
  it("shows the device's picture, else the card's own", async () => {
    renderCard('SINGLE_IMAGE_CARD', { data: { value: 'https://cam.example/snap.jpg' } });
    expect((await screen.findByTestId('card-image')).getAttribute('src')).toBe('https://cam.example/snap.jpg');
    cleanup();
    renderCard('SINGLE_IMAGE_CARD', { view: { pict: '/denah.png' }, data: { value: null } });
    expect((await screen.findByTestId('card-image')).getAttribute('src')).toBe('/denah.png');
    cleanup();
    renderCard('SINGLE_IMAGE_CARD', { data: {} });
    expect(await screen.findByText(T.cardViews.noImage)).toBeTruthy();
  });
});

describe('EMBEDDED_DASHBOARD', () => {
  it('frames an http(s) address and refuses others', async () => {
    renderCard('EMBEDDED_DASHBOARD', { view: { url: 'https://grafana.example/d/x' } });
    expect((await screen.findByTestId('card-frame')).getAttribute('src')).toBe('https://grafana.example/d/x');
    cleanup();
    renderCard('EMBEDDED_DASHBOARD', { view: { url: 'javascript:alert(1)' } });
    expect(await screen.findByText(T.cardViews.noEmbeddedUrl)).toBeTruthy();
  });
});

describe('THREE_PHASE_CARD', () => {
  it('prints phases R, S, T with the unit and dims a phase without reading', async () => {
    renderCard('THREE_PHASE_CARD', { view: { type: 'VOLT' }, data: { value_1: 220.1, value_2: 219.5, value_3: null, status_1: true, status_2: true, status_3: false } });
    const r = await screen.findByTestId('phase-1');
    expect(r.textContent).toBe(`${T.cardViews.phase(1)}220,10 V`);
    expect(screen.getByTestId('phase-2').textContent).toContain('219,50 V');
    expect(screen.getByTestId('phase-3').textContent).toContain('-');
    expect(getComputedStyle(screen.getByTestId('phase-3')).opacity).toBe('0.45');
  });
});

describe('DATA_VALUE_CARD', () => {
  it('prints value_1..value_3 under their labels', async () => {
    renderCard('DATA_VALUE_CARD', { view: { unit: 'L', labels: ['Tangki 1', 'Tangki 2'] }, data: { value_1: 1500, value_2: 20.5, value_3: 3 } });
    expect((await screen.findByTestId('data-value-1')).textContent).toBe('Tangki 11,50k L');
    expect(screen.getByTestId('data-value-2').textContent).toBe('Tangki 220,50 L');
    expect(screen.getByTestId('data-value-3').textContent).toBe(`${T.cardViews.dataValue(3)}3,00 L`);
  });
});

describe('TITLE', () => {
  it("shows 'Title' by default, the card's text and the device fact it reads", async () => {
    renderCard('TITLE', { view: {} });
    expect((await screen.findByTestId('card-title')).textContent).toBe('Title');
    cleanup();
    renderCard('TITLE', { view: { title: 'Gedung A' }, data: { value: 'SN-0042' } });
    expect((await screen.findByTestId('card-title')).textContent).toBe('Gedung A');
    expect(screen.getByTestId('card-value').textContent).toBe('SN-0042');
  });
});

describe('COORDINATE_CARD', () => {
  it('labels its axes with units and draws every pair, the newest larger', async () => {
    renderCard('COORDINATE_CARD', { view: { axis_x: 'Jarak', unit_x: 'm', axis_y: 'Tinggi', unit_y: 'cm', color_dot: '#ff0000' }, data: { coord_data: [{ x: 1, y: 2, ts: 1 }, { x: 2, y: 4, ts: 2 }, { x: 3, y: 5, ts: 3 }] } });
    expect((await screen.findByTestId('axis-x')).textContent).toBe('Jarak (m)');
    expect(screen.getByTestId('axis-y').textContent).toBe('Tinggi (cm)');
    const last = screen.getByTestId('coord-last');
    expect(last.getAttribute('r')).toBe('5');
    expect(last.getAttribute('fill')).toBe('#ff0000');
    expect(last.textContent).toBe('3,00 m, 5,00 cm');
  });
});

describe('STRAIN_CARD', () => {
  it('draws one gauge per reading with its label, curve and colour', async () => {
    renderCard('STRAIN_CARD', { view: { unit: 'µε', strain_labels: ['Balok A', 'Balok B'], strain_curves: ['linear', 'log'], strain_colors: ['#123456'] }, data: { value: { g1: 120.5, g2: -40 } } });
    const a = await screen.findByTestId('strain-0');
    expect(a.textContent).toContain(T.cardViews.strain('Balok A'));
    expect(a.textContent).toContain('120,50 µε');
    expect(a.querySelector('[data-color]')!.getAttribute('data-color')).toBe('#123456');
    expect(screen.getByTestId('strain-1').textContent).toContain('log');
    expect(screen.getByTestId('strain-1').textContent).toContain('-40,00 µε');
  });
});

describe('CRACK_CARD', () => {
  it('draws one crack per reading with its label, length and colour', async () => {
    renderCard('CRACK_CARD', { view: { unit: 'mm', crack_labels: ['Kolom 1', 'Kolom 2'], crack_lengths: [120, 60], crack_colors: ['#aa0000', '#00aa00'] }, data: { value: [0.42, 0.1] } });
    const c = await screen.findByTestId('crack-0');
    expect(c.textContent).toContain(T.cardViews.crack('Kolom 1'));
    expect(c.textContent).toContain('0,42 mm');
    expect(c.textContent).toContain(`${T.cardViews.length} 120`);
    expect(screen.getByTestId('crack-1').querySelector('path')!.getAttribute('stroke')).toBe('#00aa00');
  });
});

describe('MAP_CARD', () => {
  it('places a marker per located device, usable without a tile server', async () => {
    renderCard('MAP_CARD', {
      h: 4,
      model: { map_type: 'street' },
      data: { map_marker: [{ device_id: 1, label: 'SPBU 1', latitude: -6.2, longitude: 106.8, online: true, value: 12 }, { device_id: 2, label: 'SPBU 2', latitude: -6.3, longitude: 106.9, online: false }, { device_id: 3, label: 'no gps' }] },
    });
    const map = await screen.findByTestId('map');
    expect(map.getAttribute('data-markers')).toBe('2');
    // the map itself is made after the first paint
    await waitFor(() => expect(map.querySelectorAll('path.leaflet-interactive').length).toBe(2));
    const paths = map.querySelectorAll('path.leaflet-interactive');
    expect([...paths].map((p) => p.getAttribute('fill'))).toEqual(['#2e7d32', '#9e9e9e']);
    expect(map.querySelectorAll('img.leaflet-tile').length).toBe(0);
  });

  it('moves, restyles, adds and removes markers in place when a push comes', async () => {
    const component = { model: { map_type: 'street' }, h: 4 };
    const first = { map_marker: [{ device_id: 1, label: 'SPBU 1', latitude: -6.2, longitude: 106.8, online: true }, { device_id: 2, label: 'SPBU 2', latitude: -6.3, longitude: 106.9, online: true }] };
    const { rerender } = renderCard('MAP_CARD', { ...component, data: first });
    const map = await screen.findByTestId('map');
    await waitFor(() => expect(map.querySelectorAll('path.leaflet-interactive').length).toBe(2));
    const before = [...map.querySelectorAll('path.leaflet-interactive')];
    // device 1 went offline and moved, device 2 left the card, device 3 joined
    const next = { map_marker: [{ device_id: 1, label: 'SPBU 1', latitude: -6.25, longitude: 106.85, online: false }, { device_id: 3, label: 'SPBU 3', latitude: -6.4, longitude: 107, online: true }] };
    rerender(cardElement('MAP_CARD', { ...component, data: next }));
    await waitFor(() => expect(map.querySelectorAll('path.leaflet-interactive')[0]!.getAttribute('fill')).toBe('#9e9e9e'));
    const after = [...map.querySelectorAll('path.leaflet-interactive')];
    expect(after).toHaveLength(2);
    expect(after[0]).toBe(before[0]); // the same circle, restyled
    expect(after).not.toContain(before[1]);
    expect(after[1]!.getAttribute('fill')).toBe('#2e7d32');
  });

  it('paints a large fleet on one canvas (no element per marker), restyling in place when a push comes', async () => {
    // jsdom has no 2D context: a recording one stands in (every fill of a circle: where, how large, which colour)
    const fills: { x: number; y: number; r: number; fill: string }[] = [];
    let arc: [number, number, number] | undefined;
    const ctx = new Proxy({} as Record<string | symbol, unknown>, {
      get: (target, prop) => {
        if (prop in target) return target[prop];
        if (prop === 'arc') return (x: number, y: number, r: number) => void (arc = [x, y, r]);
        if (prop === 'fill') return () => void (arc && fills.push({ x: arc[0], y: arc[1], r: arc[2], fill: String(target.fillStyle) }));
        return () => undefined;
      },
      set: (target, prop, value) => ((target[prop] = value), true),
    });
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation((() => ctx) as never);
    // Leaflet sizes the map (and so what the canvas covers) by the container's client size, which jsdom leaves at 0
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(960);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(640);
    try {
      const n = CANVAS_MARKERS_FROM + 10;
      // a fleet spread over a grid 1° apart (≥ 45 px at the fitted zoom): a dense fleet clusters only what touches, so
      // here every truck is its own circle (clustering: clusters.test.ts)
      const fleet = (offline: number) => ({ map_marker: Array.from({ length: n }, (_, i) => ({ device_id: i + 1, label: `Truk ${i + 1}`, latitude: -2 - Math.floor(i / 10), longitude: 100 + (i % 10), online: i !== offline })) });
      const component = { model: { map_type: 'street' }, h: 4 };
      const { rerender } = renderCard('MAP_CARD', { ...component, data: fleet(-1) });
      const map = await screen.findByTestId('map');
      expect(map.getAttribute('data-markers')).toBe(String(n));
      await waitFor(() => expect(new Set(fills.map((f) => `${f.x},${f.y}`)).size).toBe(n));
      const fifth = `${fills[4]!.x},${fills[4]!.y}`;
      expect(map.querySelectorAll('canvas').length).toBe(1);
      expect(map.querySelectorAll('path.leaflet-interactive').length).toBe(0);
      expect(new Set(fills.map((f) => f.fill))).toEqual(new Set(['#2e7d32']));
      expect(fills.every((f) => f.r === 8)).toBe(true);
      // truck 5 goes offline: drawn grey, the others still green, still one canvas
      fills.length = 0;
      rerender(cardElement('MAP_CARD', { ...component, data: fleet(4) }));
      await waitFor(() => expect(fills.some((f) => f.fill === '#9e9e9e')).toBe(true));
      expect(map.querySelectorAll('canvas').length).toBe(1);
      // the grey circle is truck 5's, where it was first drawn green
      expect(new Set(fills.filter((f) => f.fill === '#9e9e9e').map((f) => `${f.x},${f.y}`))).toEqual(new Set([fifth]));
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe('MAP_CARD with a dense fleet (issue 28)', () => {
  it('groups trucks that touch into clusters with their count and online share; a handful of devices stays one by one', async () => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation((() => new Proxy({}, { get: () => () => undefined })) as never);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(480);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(320);
    try {
      // 60 trucks within ~1 km of each other in Jakarta, 20 of them online, and one far away in Surabaya
      const trucks = Array.from({ length: 60 }, (_, i) => ({ device_id: i + 1, label: `Truk ${i + 1}`, latitude: -6.2 + (i % 6) * 0.001, longitude: 106.8 + Math.floor(i / 6) * 0.001, online: i < 20 }));
      const far = { device_id: 99, label: 'Truk Surabaya', latitude: -7.25, longitude: 112.75, online: true };
      renderCard('MAP_CARD', { h: 4, model: { map_type: 'street' }, data: { map_marker: [...trucks, far] } });
      const map = await screen.findByTestId('map');
      await waitFor(() => expect(map.querySelectorAll('[data-testid="map-cluster"]').length).toBe(1));
      expect(map.querySelector('[data-testid="map-cluster"]')!.textContent).toBe('60');
      expect(map.getAttribute('data-clusters')).toBe('1');
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe('DROPDOWN_SELECTOR', () => {
  it('sets the dashboard variable; only the cards affected by it are re-queried with it', async () => {
    let selected: { params: { vars?: unknown; keys?: string[] }; keys: ReadonlySet<string> } | undefined;
    function Probe() {
      selected = useLiveDashboard()?.selected as typeof selected;
      return null;
    }
    renderCard('DROPDOWN_SELECTOR', {
      key: 'pilih',
      model: { config: { variable: 'zona', options: [{ label: 'Zona A', value: 'a' }, { label: 'Zona B', value: 'b' }] } },
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
    expect(within(await screen.findByRole('listbox')).getAllByRole('option').map((o) => o.textContent)).toEqual(['1', '2', '3']);
  });
});
