// The warning beside a notification whose channel the gateway cannot send through: what happens to its messages
// ("Belum diatur", never sent) and what configures the channel (its environment variables). Shown by the rule
// editor's task form the moment the channel is chosen, and by Manage Task beside such deliveries.
import { Alert, AlertTitle } from '@mui/material';
import { channelLabel, T, type ChannelStatus } from '@sentra/contracts';
import { useAppArea } from '../../ui/useAppArea.js';
import { unconfigured, useChannels, variableList } from './channels.js';

export function ChannelNotice({ status, compact = false }: { status: ChannelStatus; compact?: boolean }) {
  const name = channelLabel(status.channel);
  return (
    <Alert severity="warning" data-testid="channel-notice" sx={{ mt: compact ? 1 : 2 }}>
      <AlertTitle>{T.notifications.notConfiguredTitle(name)}</AlertTitle>
      {!compact && T.notifications.notConfiguredText} {T.notifications.notConfiguredHow(variableList(status.variables))}
    </Alert>
  );
}

/** A notice for each of these channels the gateway of this application cannot send through (nothing while unknown). */
export function UnconfiguredChannels({
  channels: chosen,
  compact,
}: {
  channels: readonly string[];
  compact?: boolean;
}) {
  const { domain } = useAppArea();
  const channels = useChannels(domain);
  const missing = [...new Set(chosen)].flatMap((c) => {
    const s = unconfigured(channels, c);
    return s ? [s] : [];
  });
  return (
    <>
      {missing.map((s) => (
        <ChannelNotice key={s.channel} status={s} compact={compact} />
      ))}
    </>
  );
}
