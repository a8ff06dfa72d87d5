// What every command card shares (spec 02 section 2 "Command cards"): icon, status line (the device's status query,
// or the command's progress and outcome), the controls, and the confirmation of tag cards (many devices).
import type { ReactNode } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';
import { T, commandCardColumns, type CardData } from '@sentra/contracts';
import { formatValue, type UnitView } from '../common/format.js';
import { CardIcon } from '../common/icons.js';
import { OK_GREEN, WARNING_RED } from '../common/palette.js';
import type { useCommand } from '../common/useCommand.js';

export interface CommandViewFields extends UnitView {
  title?: string;
  pict?: string;
  button_label?: string;
  min?: number;
  max?: number;
  date_format?: string;
  time_format?: string;
  on_value?: unknown;
  off_value?: unknown;
  default_value?: unknown;
}

/**
 * The device status a command card shows under its title: the gateway's raw status (its status query, else its value
 * query) printed with the single value card's display rules (the card's decimals or the dashboard's, k/M/B/T unless
 * full_number, its unit), a boolean as ON/OFF; `word` prints it instead where the card has its own words (the toggle).
 */
export function statusLine(
  data: CardData | undefined,
  view: CommandViewFields,
  decimals?: number,
  word?: (status: unknown) => string,
): string | undefined {
  if (!data) return undefined;
  if (data.success === false) return data.alert;
  const status = data.status ?? data.value;
  if (status === undefined || status === null || status === '') return undefined;
  return word ? word(status) : formatValue(status, view, decimals);
}

export function CommandShell({
  data,
  view,
  w,
  decimals,
  command,
  confirmText,
  fallbackIcon,
  statusWord,
  children,
}: {
  data?: CardData;
  view: CommandViewFields;
  w: number;
  decimals?: number;
  command: ReturnType<typeof useCommand>;
  confirmText: string;
  fallbackIcon: string;
  /** the card's own words for the status (the toggle's ON/OFF) */
  statusWord?: (status: unknown) => string;
  children: ReactNode;
}) {
  const columns = commandCardColumns(w);
  const status = command.statusText ?? statusLine(data, view, decimals, statusWord);
  const color = command.failed ? WARNING_RED : command.succeeded ? OK_GREEN : 'text.secondary';
  const tagged = Array.isArray(data?.devices) ? data!.devices.length : undefined;
  return (
    <Stack
      sx={{ height: '100%', justifyContent: 'center', minWidth: 0 }}
      spacing={0.75}
      data-columns={columns}
      data-command-state={command.state}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
        <CardIcon pict={view.pict} fallback={fallbackIcon} size={24} />
        <Typography
          variant="body2"
          sx={{ color, flex: 1, minWidth: 0 }}
          noWrap
          data-testid="command-status"
          title={status}
        >
          {status ?? (data?.enable === false ? T.cardViews.disabledOffline : '\u00a0')}
        </Typography>
        {tagged !== undefined && (
          <Typography variant="caption" color="text.secondary" noWrap>
            {T.cardViews.devicesTargeted(tagged)}
          </Typography>
        )}
      </Stack>
      {/* "Width w: 2 maps to 6 columns, 4 to 12 columns, otherwise 3" of a 12-column row: the controls' share */}
      {/* read-only (edit layout, preview): the controls shown disabled (a disabled fieldset disables every control in it) */}
      <Box
        sx={{
          width: `${Math.min(100, (columns / (3 * Math.max(1, w))) * 100)}%`,
          minWidth: 0,
          ...(command.readOnly && { opacity: 0.5 }),
        }}
      >
        {command.readOnly ? (
          <fieldset disabled data-testid="command-readonly" style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
            {children}
          </fieldset>
        ) : (
          children
        )}
      </Box>
      <Dialog open={command.confirming} onClose={command.cancel}>
        <DialogTitle>{T.cardViews.confirmTitle}</DialogTitle>
        <DialogContent>{confirmText}</DialogContent>
        <DialogActions>
          <Button onClick={command.cancel}>{T.common.cancel}</Button>
          <Button variant="contained" onClick={command.confirm} data-testid="command-confirm">
            {T.common.yes}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
