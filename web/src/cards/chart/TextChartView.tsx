// TEXT_CHART_CARD: the chart's series as text — per series its latest value (with graph_unit), when it was read, and
// min / avg / max over the window. No chart library.
import { Box, Stack, Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import type { CardViewProps } from '../common/definition.js';
import { chartDateFormats, formatDate, pickFormat } from '../common/dates.js';
import { formatCardNumber, withUnit } from '../common/format.js';
import { seriesColors } from '../common/palette.js';
import { seriesKeys, seriesName, seriesSummary, type ChartView, type Row } from './series.js';

export default function TextChartView({ view, data, decimals }: CardViewProps<ChartView>) {
  const rows = ((data?.chart_data as Row[] | undefined) ?? []) as Row[];
  const keys = seriesKeys(data);
  const summary = seriesSummary(rows, keys);
  const colors = seriesColors(view.graph_colors, keys.length);
  const fmt = (n: number | undefined) =>
    n === undefined
      ? T.cardViews.noValue
      : withUnit(
          formatCardNumber(n, {
            decimals: view.decimal ?? decimals,
            fullNumber: view.full_number,
            locale: view.locale,
          }),
          view.graph_unit ?? '',
          false,
        );
  const dateFormat = pickFormat(view.date_format, chartDateFormats(data?.window).tooltip);
  if (keys.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        {T.cardViews.noData}
      </Typography>
    );
  return (
    <Stack spacing={1} sx={{ height: '100%', overflow: 'auto' }} data-testid="text-chart">
      {keys.map((k, i) => {
        const s = summary[k] ?? {};
        return (
          <Box key={k} sx={{ borderLeft: 3, borderColor: colors[i], pl: 1 }}>
            <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline' }}>
              <Typography variant="body2" color="text.secondary" noWrap>
                {seriesName(view, k)}
              </Typography>
              <Typography
                sx={{ fontWeight: 700, fontSize: 20, fontVariantNumeric: 'tabular-nums' }}
                noWrap
                data-testid="text-chart-last"
              >
                {fmt(s.last)}
              </Typography>
            </Stack>
            <Typography variant="caption" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums' }} noWrap>
              {s.lastTs !== undefined ? `${formatDate(s.lastTs, dateFormat, view.locale)} · ` : ''}min {fmt(s.min)} ·
              avg {fmt(s.avg)} · max {fmt(s.max)}
            </Typography>
          </Box>
        );
      })}
    </Stack>
  );
}
