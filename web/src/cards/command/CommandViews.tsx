// The command card views: button, number, text, toggle, date and date range (plain, _TAGS_ and _CUSTOM_ variants
// share them). Each drives its own command machine through useCommand; tag cards confirm first (many devices).
import { Suspense, lazy, useState } from 'react';
import { Button, Stack, Switch, TextField, Typography } from '@mui/material';
import { CARD_TYPES, T, isCardType, type CardData } from '@sentra/contracts';
import type { CardViewProps } from '../common/definition.js';
import { formatDate } from '../common/dates.js';
import { useCommand } from '../common/useCommand.js';
import { CommandShell, type CommandViewFields } from './CommandShell.js';
import {
  checkNumber,
  dateAllowed,
  dateCommand,
  dateDisplayFormat,
  DEFAULT_RANGE_MS,
  DAY_MS,
  isOn,
  numberBounds,
  pickerLocale,
  rangeCommand,
  textMax,
  toggleValue,
  toShownPrecision,
} from './commandValues.js';

type Props = CardViewProps<CommandViewFields>;
const c = T.dashboards.commands;

/** A `_TAGS_` card (the catalogue's tagCommand kind) commands every device of its tags: it asks first. */
const isTags = (cat: string) => isCardType(cat) && CARD_TYPES[cat].kind === 'tagCommand';
function useCardCommand(p: Props) {
  return useCommand(p.dashboardId, p.component.key, { confirm: isTags(p.component.cat) });
}
const titleOf = (p: Props, fallback: string) => (p.view.title && p.view.title.trim() ? p.view.title : fallback);
const sendLabel = (view: CommandViewFields) =>
  view.button_label && view.button_label.trim() ? view.button_label : c.send;

function Shell({
  p,
  command,
  confirmText,
  icon,
  statusWord,
  children,
}: {
  p: Props;
  command: ReturnType<typeof useCommand>;
  confirmText: string;
  icon: string;
  statusWord?: (status: unknown) => string;
  children: React.ReactNode;
}) {
  return (
    <CommandShell
      data={p.data as CardData | undefined}
      view={p.view}
      w={p.component.w}
      decimals={p.decimals}
      command={command}
      confirmText={confirmText}
      fallbackIcon={icon}
      statusWord={statusWord}
    >
      {children}
    </CommandShell>
  );
}

export function ButtonView(p: Props) {
  const command = useCardCommand(p);
  return (
    <Shell p={p} command={command} confirmText={T.cardViews.confirmSend(titleOf(p, c.buttonTitle))} icon="button">
      <Button
        fullWidth
        variant="contained"
        disabled={command.busy}
        onClick={() => command.send({})}
        data-testid="command-send"
      >
        {sendLabel(p.view)}
      </Button>
    </Shell>
  );
}

export function NumberView(p: Props) {
  const command = useCardCommand(p);
  const { min, max } = numberBounds(p.view);
  const [text, setText] = useState(() =>
    p.view.default_value !== undefined ? String(p.view.default_value) : String(min),
  );
  const checked = checkNumber(text, p.view);
  return (
    <Shell p={p} command={command} confirmText={T.cardViews.confirmSend(titleOf(p, c.inputTitle))} icon="send">
      <Stack direction="row" spacing={1}>
        <TextField
          size="small"
          type="number"
          value={text}
          onChange={(e) => setText(e.target.value)}
          error={!!checked.error}
          title={checked.error}
          slotProps={{
            htmlInput: { min, max, 'data-testid': 'command-input', 'aria-label': titleOf(p, c.inputTitle) },
          }}
          sx={{ flex: 1, minWidth: 0 }}
        />
        <Button
          variant="contained"
          disabled={command.busy || checked.value === undefined}
          onClick={() => command.send({ value: checked.value })}
          data-testid="command-send"
        >
          {sendLabel(p.view)}
        </Button>
      </Stack>
    </Shell>
  );
}

export function TextView(p: Props) {
  const command = useCardCommand(p);
  const max = textMax(p.view);
  const [text, setText] = useState(() => (typeof p.view.default_value === 'string' ? p.view.default_value : ''));
  return (
    <Shell p={p} command={command} confirmText={T.cardViews.confirmSend(titleOf(p, c.inputTitle))} icon="send">
      <Stack direction="row" spacing={1}>
        <TextField
          size="small"
          value={text}
          onChange={(e) => setText(e.target.value.slice(0, max))}
          title={T.cardViews.textMax(max)}
          slotProps={{
            htmlInput: { maxLength: max, 'data-testid': 'command-input', 'aria-label': titleOf(p, c.inputTitle) },
          }}
          sx={{ flex: 1, minWidth: 0 }}
        />
        <Button
          variant="contained"
          disabled={command.busy || text.trim() === ''}
          onClick={() => command.send({ value: text })}
          data-testid="command-send"
        >
          {sendLabel(p.view)}
        </Button>
      </Stack>
    </Shell>
  );
}

export function ToggleView(p: Props) {
  const command = useCardCommand(p);
  const reported = isOn(p.data?.status ?? p.data?.value, p.view.on_value);
  // The switch shows the requested state while the command is on its way and, once it succeeded, until the device's
  // next report arrives (a Tasmota plug's RESULT answers the call a moment before the state's push): no flicker back.
  const [requested, setRequested] = useState<boolean | undefined>();
  // the card's data at the moment of success, kept while the success lasts (set during render: no frame in between)
  const [atSuccess, setAtSuccess] = useState<{ data: unknown } | undefined>();
  if (command.succeeded && !atSuccess) setAtSuccess({ data: p.data });
  if (!command.succeeded && atSuccess) setAtSuccess(undefined);
  const awaitingReport = command.succeeded && (!atSuccess || p.data === atSuccess.data);
  const shown = requested !== undefined && (command.busy || awaitingReport) ? requested : reported;
  return (
    <Shell
      p={p}
      command={command}
      confirmText={T.cardViews.confirmToggle(!shown ? T.cardViews.on : T.cardViews.off)}
      icon="toggle"
      statusWord={(status) => (isOn(status, p.view.on_value) ? T.cardViews.on : T.cardViews.off)}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Switch
          checked={shown}
          disabled={command.busy}
          onChange={() => {
            const next = !shown;
            setRequested(next);
            command.send({ value: toggleValue(next, p.view) });
          }}
          slotProps={{ input: { 'aria-label': titleOf(p, c.buttonTitle), role: 'switch' } as never }}
          data-testid="command-toggle"
          data-checked={shown ? 'true' : 'false'}
        />
        <Typography variant="body2" sx={{ fontWeight: 700 }} data-testid="toggle-state">
          {shown ? T.cardViews.on : T.cardViews.off}
        </Typography>
      </Stack>
    </Shell>
  );
}

const dateLabel = (ms: number, view: CommandViewFields) => formatDate(ms, dateDisplayFormat(view), view.locale);

/**
 * The console's date field (ui/DateTimeField: MUI X pickers on dayjs), in the card's display format and locale
 * ('DD MMM YYYY HH:mm', id). Loaded when a date card first draws: the pickers stay out of the views chunk every
 * dashboard loads.
 */
const DateTimeField = lazy(() => import('../../ui/DateTimeField.js').then((m) => ({ default: m.DateTimeField })));

function DateField({
  label,
  value,
  onChange,
  min,
  error,
  helperText,
  view,
  testId,
}: {
  label: string;
  value: number | null;
  onChange(ms: number | null): void;
  min?: number;
  error?: boolean;
  helperText?: string;
  view: CommandViewFields;
  testId: string;
}) {
  const waiting = (
    <TextField size="small" label={label} disabled fullWidth slotProps={{ inputLabel: { shrink: true } }} />
  );
  const format = dateDisplayFormat(view);
  return (
    <div data-testid={testId} style={{ flex: 1, minWidth: 0 }}>
      <Suspense fallback={waiting}>
        <DateTimeField
          label={label}
          value={value}
          onChange={(ms) => onChange(ms === null ? null : toShownPrecision(ms, format))}
          format={format}
          locale={pickerLocale(view.locale)}
          min={min}
          error={error}
          helperText={helperText}
          size="small"
          fullWidth
        />
      </Suspense>
    </div>
  );
}

export function DateView(p: Props) {
  const command = useCardCommand(p);
  const [ms, setMs] = useState<number | null>(() => toShownPrecision(Date.now(), dateDisplayFormat(p.view)));
  const now = Date.now();
  const ok = ms !== null && dateAllowed(ms, now);
  const label = titleOf(p, c.inputTitle);
  return (
    <Shell p={p} command={command} confirmText={T.cardViews.confirmSend(label)} icon="date">
      <Stack direction="row" spacing={1}>
        <DateField
          label={label}
          value={ms}
          onChange={setMs}
          min={now - DAY_MS + 60_000}
          error={!ok}
          helperText={ok ? undefined : ms === null ? T.cardViews.dateMissing : T.cardViews.dateTooEarly}
          view={p.view}
          testId="command-input"
        />
        <Button
          variant="contained"
          disabled={command.busy || !ok}
          onClick={() => ms !== null && command.send({ value: dateCommand(ms) })}
          data-testid="command-send"
          sx={{ alignSelf: 'flex-start' }}
        >
          {sendLabel(p.view)}
        </Button>
      </Stack>
    </Shell>
  );
}

export function DateRangeView(p: Props) {
  const command = useCardCommand(p);
  const [range, setRange] = useState<{ start: number | null; end: number | null }>(() => {
    const start = toShownPrecision(Date.now(), dateDisplayFormat(p.view));
    return { start, end: start + DEFAULT_RANGE_MS };
  });
  const now = Date.now();
  const { start, end } = range;
  const complete = start !== null && end !== null;
  const ok = complete && dateAllowed(start, now) && end > start;
  const problem = !complete
    ? T.cardViews.dateMissing
    : end <= start
      ? T.cardViews.rangeInvalid
      : T.cardViews.dateTooEarly;
  return (
    <Shell p={p} command={command} confirmText={T.cardViews.confirmSend(titleOf(p, c.inputTitle))} icon="date">
      <Stack spacing={0.75}>
        <Stack direction="row" spacing={1}>
          <DateField
            label={T.cardViews.dateStart}
            value={start}
            onChange={(v) => setRange((r) => ({ ...r, start: v }))}
            min={now - DAY_MS + 60_000}
            view={p.view}
            testId="command-start"
          />
          <DateField
            label={T.cardViews.dateEnd}
            value={end}
            onChange={(v) => setRange((r) => ({ ...r, end: v }))}
            min={start ?? undefined}
            view={p.view}
            testId="command-end"
          />
        </Stack>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography
            variant="caption"
            color={ok ? 'text.secondary' : 'error'}
            sx={{ flex: 1 }}
            noWrap
            data-testid="date-range-label"
          >
            {ok ? `${dateLabel(start, p.view)} – ${dateLabel(end, p.view)}` : problem}
          </Typography>
          <Button
            variant="contained"
            disabled={command.busy || !ok}
            onClick={() => ok && command.send({ value: rangeCommand(start, end) })}
            data-testid="command-send"
          >
            {sendLabel(p.view)}
          </Button>
        </Stack>
      </Stack>
    </Shell>
  );
}
