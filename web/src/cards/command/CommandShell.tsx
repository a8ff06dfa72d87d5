// What every command card shares (spec 02 section 2 "Command cards"): icon, status line (the device's status query,
// or the command's progress and outcome), the controls, and the confirmation of tag cards (many devices).
import type { ReactNode } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';
import { T, commandCardColumns, type CardData } from '@sentra/contracts';
import { formatValue } from '../common/format.js';
import { CardIcon } from '../common/icons.js';
import { OK_GREEN, WARNING_RED } from '../common/palette.js';
import type { useCommand } from '../common/useCommand.js';

export interface CommandViewFields {
  title?: string;
  pict?: string;
  button_label?: string;
  min?: number;
  max?: number;
  locale?: string;
  date_format?: string;
  time_format?: string;
  unit?: string;
  decimal?: number;
  on_value?: unknown;
  off_value?: unknown;
  default_value?: unknown;
}

/** The device status a command card shows under its title. */
export function statusLine(data: CardData | undefined, view: CommandViewFields, decimals?: number): string | undefined {
  if (!data) return undefined;
  if (data.success === false) return data.alert;
  if (typeof data.primary === 'string' && data.primary) return data.primary;
  if (data.status !== undefined && data.status !== null) return formatValue(data.status, { unit: view.unit, decimal: view.decimal }, decimals);
  return undefined;
}

export function CommandShell({
  data,
  view,
  w,
  decimals,
  command,
  confirmText,
  fallbackIcon,
  children,
}: {
  data?: CardData;
  view: CommandViewFields;
  w: number;
  decimals?: number;
  command: ReturnType<typeof useCommand>;
  confirmText: string;
  fallbackIcon: string;
  children: ReactNode;
}) {
  const columns = commandCardColumns(w);
  const status = command.statusText ?? statusLine(data, view, decimals);
  const color = command.failed ? WARNING_RED : command.succeeded ? OK_GREEN : 'text.secondary';
  const tagged = Array.isArray(data?.devices) ? data!.devices.length : undefined;
  return (
    <Stack sx={{ height: '100%', justifyContent: 'center', minWidth: 0 }} spacing={0.75} data-columns={columns} data-command-state={command.state}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
        <CardIcon pict={view.pict} fallback={fallbackIcon} size={24} />
        <Typography variant="body2" sx={{ color, flex: 1, minWidth: 0 }} noWrap data-testid="command-status" title={status}>
          {status ?? (data?.enable === false ? T.cardViews.disabledOffline : '\u00a0')}
        </Typography>
        {tagged !== undefined && (
          <Typography variant="caption" color="text.secondary" noWrap>{T.cardViews.devicesTargeted(tagged)}</Typography>
        )}
      </Stack>
      {/* "Width w: 2 maps to 6 columns, 4 to 12 columns, otherwise 3" of a 12-column row: the controls' share */}
      <Box sx={{ width: `${Math.min(100, (columns / (3 * Math.max(1, w))) * 100)}%`, minWidth: 0 }}>{children}</Box>
      <Dialog open={command.confirming} onClose={command.cancel}>
        <DialogTitle>{T.cardViews.confirmTitle}</DialogTitle>
        <DialogContent>{confirmText}</DialogContent>
        <DialogActions>
          <Button onClick={command.cancel}>{T.common.cancel}</Button>
          <Button variant="contained" onClick={command.confirm} data-testid="command-confirm">{T.common.yes}</Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
