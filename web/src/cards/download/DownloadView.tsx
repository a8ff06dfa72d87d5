// DOWNLOAD_DATA_CARD (fixed 1×2): downloads the card's data in the dashboard's window as CSV (120 s call), saved as
// Chart_ (a graph query) or Data_ plus the card key and a timestamp; starting shows 'Download sedang dilakukan'.
import { useState } from 'react';
import { Button, Stack } from '@mui/material';
import { cardCsvFileName, contracts, T } from '@sentra/contracts';
import { api } from '../../api/client.js';
import { notices } from '../../ui/snackbar/notices.js';
import { failureMessage } from '../../api/outcome.js';
import type { CardViewProps } from '../common/definition.js';
import { CardIcon } from '../common/icons.js';
import { useLiveDashboard } from '../../dashboards/live/LiveDashboard.js';

function save(text: string, name: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export default function DownloadView({
  component,
  view,
  dashboardId,
}: CardViewProps<{ pict?: string; button_label?: string }>) {
  const live = useLiveDashboard();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    const notice = notices.about(`card-download:${dashboardId}:${component.key}`);
    notice.info(T.dashboards.commands.downloading);
    const { dashboard_id: _id, keys: _k, vars, ...filter } = live?.base ?? { dashboard_id: dashboardId };
    const r = await api.call(
      contracts.cards.csv,
      { dashboardId, componentKey: component.key, ...filter, ...(vars ? { vars: JSON.stringify(vars) } : {}) } as never,
      { responseType: 'text' },
    );
    setBusy(false);
    if (r.code === 200 && typeof r.body === 'string')
      (notice.settle(), save(r.body as string, cardCsvFileName(component.key, component.model, Date.now())));
    else notice.error(failureMessage(r, { fallback: T.cardViews.downloadFailed }));
  };
  return (
    <Stack spacing={1} sx={{ height: '100%', justifyContent: 'center', alignItems: 'stretch' }}>
      <Stack direction="row" sx={{ justifyContent: 'center' }}>
        <CardIcon pict={view.pict} fallback="download" size={28} />
      </Stack>
      <Button variant="contained" disabled={busy} onClick={() => void run()} data-testid="download-send">
        {view.button_label && view.button_label !== T.dashboards.commands.send
          ? view.button_label
          : T.cardViews.download}
      </Button>
    </Stack>
  );
}
