// WEBSERVICE and WEBSERVICE_FETCH: data from an HTTP endpoint the card configures, fetched by the gateway
// (allow-listed hosts, time-out, size limit; contracts/src/http/webservice.ts). WEBSERVICE reads it when shown (and
// on the dashboard's refresh); WEBSERVICE_FETCH re-reads it every config.refresh ms (at least 5 s, default 60 s).
// A scalar is printed like a single value, a list of objects as a table, an object as its fields, text as text.
import { useEffect, useState } from 'react';
import { Box, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { contracts, T, WEBSERVICE_LIMITS, type WebserviceAnswer } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { isOk } from '../../api/request.js';
import { failureMessage } from '../../api/outcome.js';
import { CardProblem } from '../common/CardErrorBoundary.js';
import type { CardViewProps } from '../common/definition.js';
import { formatDate } from '../common/dates.js';
import { formatValue, type UnitView } from '../common/format.js';
import { useElementSize } from '../common/useElementSize.js';
import { ValueText } from '../common/ValueText.js';

export function refreshOf(cat: string, config: Record<string, unknown> | undefined): number | undefined {
  if (cat !== 'WEBSERVICE_FETCH') return undefined;
  const own = Number((config as { refresh?: unknown } | undefined)?.refresh);
  return Number.isFinite(own) && own > 0
    ? Math.max(WEBSERVICE_LIMITS.minRefreshMs, own)
    : WEBSERVICE_LIMITS.defaultRefreshMs;
}

export function WebserviceData({ data, view, decimals }: { data: unknown; view: UnitView; decimals?: number }) {
  const { ref, width, height } = useElementSize();
  if (data === null || typeof data !== 'object') {
    return (
      <Box ref={ref} sx={{ height: '100%', display: 'flex', alignItems: 'center' }}>
        <ValueText text={formatValue(data, view, decimals)} width={width} height={height} />
      </Box>
    );
  }
  if (Array.isArray(data) && data.every((r) => r && typeof r === 'object' && !Array.isArray(r))) {
    const rows = data.slice(0, 50) as Record<string, unknown>[];
    const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))].slice(0, 8);
    return (
      <Box sx={{ height: '100%', overflow: 'auto' }}>
        <Table size="small" stickyHeader data-testid="webservice-table">
          <TableHead>
            <TableRow>
              {keys.map((k) => (
                <TableCell key={k} sx={{ fontWeight: 700 }}>
                  {k}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((r, i) => (
              <TableRow key={i}>
                {keys.map((k) => (
                  <TableCell key={k}>
                    {formatValue(r[k], { decimal: view.decimal, full_number: view.full_number }, decimals)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    );
  }
  return (
    <Stack spacing={0.25} sx={{ height: '100%', overflow: 'auto' }} data-testid="webservice-fields">
      {Object.entries(data as Record<string, unknown>)
        .slice(0, 30)
        .map(([k, v]) => (
          <Stack key={k} direction="row" sx={{ justifyContent: 'space-between', gap: 1 }}>
            <Typography variant="body2" color="text.secondary" noWrap>
              {k}
            </Typography>
            <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>
              {formatValue(v, { decimal: view.decimal, full_number: view.full_number }, decimals)}
            </Typography>
          </Stack>
        ))}
    </Stack>
  );
}

export default function WebserviceView({ component, view, dashboardId, decimals }: CardViewProps<UnitView>) {
  const [answer, setAnswer] = useState<WebserviceAnswer>();
  const [error, setError] = useState<string>();
  const every = refreshOf(component.cat, component.config);
  useEffect(() => {
    let on = true;
    const load = async () => {
      const r = await api.call(contracts.webservice.fetch, { dashboardId, componentKey: component.key });
      if (!on) return;
      if (isOk(r)) {
        setAnswer(r.body as WebserviceAnswer);
        setError(undefined);
      } else
        setError(
          failureMessage(r, {
            byCode: contracts.webservice.fetch.errors,
            fallback: (r.body as { message?: string } | null)?.message ?? T.cardViews.webserviceFailed,
          }),
        );
    };
    void load();
    const timer = every ? setInterval(() => void load(), every) : undefined;
    return () => {
      on = false;
      if (timer) clearInterval(timer);
    };
  }, [dashboardId, component.key, every]);
  if (error && !answer) return <CardProblem message={error} />;
  if (!answer) return null;
  return (
    <Stack sx={{ height: '100%', minHeight: 0 }}>
      <Box sx={{ flex: 1, minHeight: 0 }}>
        <WebserviceData data={answer.data} view={view} decimals={decimals} />
      </Box>
      <Typography variant="caption" color={error ? 'error' : 'text.secondary'} noWrap>
        {error ?? T.cardViews.webserviceFetched(formatDate(answer.fetched_at, 'HH:mm:ss, DD MMM YY'))}
      </Typography>
    </Stack>
  );
}
