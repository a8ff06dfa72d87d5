// The Data dialog's history chart (issue 28): the window's series drawn with Plotly, loaded lazily through the chart
// cards' draw queue (chart/chartDraws.ts), so the dialog's table shows first and Plotly's chunk is fetched only here.
import { useEffect, useMemo, useRef } from 'react';
import { Box } from '@mui/material';
import type { SensorDataRow } from '@sentra/contracts';
import { releaseChart, requestChartDraw } from '../../cards/chart/chartDraws.js';
import { historyTraces } from './historySeries.js';

const HEIGHT = 280;

export function HistoryChart({ rows, param }: { rows: readonly SensorDataRow[] | null; param: string }) {
  const host = useRef<HTMLDivElement>(null);
  const traces = useMemo(() => (rows ? historyTraces(rows, param) : []), [rows, param]);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    if (traces.length === 0) return void releaseChart(el);
    requestChartDraw(el, ({ plotly, locale }) => {
      const data = traces.map((t) => ({
        type: 'scatter',
        mode: t.x.length > 200 ? 'lines' : 'lines+markers',
        name: t.name,
        x: t.x.map((ts) => new Date(ts)),
        y: t.y,
        line: { shape: t.step ? 'hv' : 'linear', width: 2 },
        marker: { size: 4 },
      }));
      void plotly.react(
        el,
        data as never,
        {
          height: HEIGHT,
          margin: { l: 56, r: 16, t: 8, b: 40 },
          showlegend: traces.length > 1,
          legend: { orientation: 'h', y: -0.2 },
          xaxis: { type: 'date' },
          yaxis: { automargin: true },
          autosize: true,
        } as never,
        { displayModeBar: false, responsive: true, locale } as never,
      );
    });
  }, [traces]);
  useEffect(() => {
    const el = host.current;
    return () => {
      if (el) releaseChart(el);
    };
  }, []);

  // kept mounted (hidden without a series): Plotly's state on the element is freed when it leaves
  return (
    <Box
      ref={host}
      data-testid="history-chart"
      sx={{ width: '100%', height: HEIGHT, mb: 2, display: traces.length ? 'block' : 'none' }}
    />
  );
}
