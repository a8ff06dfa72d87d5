// A device's and a member's texts in the chart cards are shown as text (issue 23): names and labels carry no markup.
import { describe, expect, it } from 'vitest';

import { PAYLOAD, SCRIPT, setUpRenderTests } from '../cards.test-kit.js';
import { buildFigure } from './series.js';
import { plotlyShown } from '../../ui/plainText.test-kit.js';

setUpRenderTests();

describe('chart cards (Plotly strings)', () => {
  const rows = [
    { ts: Date.UTC(2024, 2, 10, 8), [PAYLOAD]: 1 },
    { ts: Date.UTC(2024, 2, 10, 9), [PAYLOAD]: 2 },
  ];
  const markup = /[<>"]|%\{/;

  it('series names from a device, axis titles, unit and reference label carry no markup and read as typed', () => {
    const view = {
      xlabel: PAYLOAD,
      ylabel: SCRIPT,
      graph_unit: '%{y}<b>',
      reference_line_value: 5,
      reference_line_label: PAYLOAD,
    };
    const fig = buildFigure(
      'LINE_CHART_CARD',
      { key: 'c', cat: 'LINE_CHART_CARD', success: true, chart_keys: [PAYLOAD], chart_data: rows } as never,
      view,
    );
    const texts = [
      fig.traces[0]!.name,
      fig.layout.xaxis.title.text,
      fig.layout.yaxis.title.text,
      fig.layout.yaxis.ticksuffix,
      fig.layout.annotations[0].text,
    ] as string[];
    for (const t of texts) expect(t).not.toMatch(markup);
    expect(texts.map(plotlyShown)).toEqual([PAYLOAD, PAYLOAD, SCRIPT, ' %{y}<b>', PAYLOAD]);
  });

  it("a series' label set in the card and a pie's slice names from the device read as typed", () => {
    const line = buildFigure(
      'LINE_CHART_CARD',
      { key: 'c', cat: 'LINE_CHART_CARD', success: true, chart_keys: ['r'], chart_data: [{ ts: 1, r: 1 }] } as never,
      { labels: { r: SCRIPT } },
    );
    expect(line.traces[0]!.name).not.toMatch(markup);
    expect(plotlyShown(line.traces[0]!.name as string)).toBe(SCRIPT);
    const pie = buildFigure(
      'PIE_CHART_CARD',
      {
        key: 'c',
        cat: 'PIE_CHART_CARD',
        success: true,
        chart_data: [
          { key: PAYLOAD, value: 3 },
          { key: 'b', value: 1 },
        ],
      } as never,
      { labels: { b: SCRIPT } },
    );
    const labels = pie.traces[0]!.labels as string[];
    for (const l of labels) expect(l).not.toMatch(markup);
    expect(labels.map(plotlyShown)).toEqual([PAYLOAD, SCRIPT]);
  });
});
