// The warning every screen shows while the gateway cannot store device data (a full disk, its database unreachable):
// devices are slowed and their data held until the writes succeed again. Asked once when the frame opens, then kept
// by the live `system` channel (contracts SYSTEM_LIVE), so it appears and goes without a reload or polling. A failed
// question shows nothing: the banner is a hint, the screens' own calls say what failed.
import { useState } from 'react';
import { Alert } from '@mui/material';
import { SYSTEM_LIVE, T, contracts, type SystemStatus } from '@sentra/contracts';
import { api } from '../api/client.js';
import { useLoad } from '../api/call.js';
import { isOk } from '../api/request.js';
import { useLiveEvent } from '../live/useLive.js';

export function StorageBanner() {
  const [status, setStatus] = useState<SystemStatus | null>(null);
  useLoad(
    () => api.call(contracts.system.status, {}),
    (r) => {
      if (isOk(r)) setStatus((seen) => seen ?? (r.body as SystemStatus));
    },
    [],
  );
  useLiveEvent<SystemStatus>(SYSTEM_LIVE.channel, {}, SYSTEM_LIVE.event, (pushes) => setStatus(pushes.at(-1)!));
  if (status?.storage !== 'failing') return null;
  return (
    <Alert severity="warning" role="alert" data-testid="storage-failing" sx={{ mb: 2 }}>
      {T.common.storageFailing}
    </Alert>
  );
}
