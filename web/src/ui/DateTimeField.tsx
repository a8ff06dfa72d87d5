// The console's one date / date-time field (spec 03 section 9: MM/DD/YYYY HH:mm:ss, 24-hour with seconds), the MUI X
// picker on dayjs. The format decides the views (a date-only format gives a date picker), so a card can reuse it with
// 'DD MMM YYYY' in locale 'id'. Values are epoch ms in the browser's zone, null while empty or incomplete. Import it
// only from lazily loaded screens: the pickers stay out of the first bundle.
import type { ReactNode } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/id';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { monthNames } from './monthNames.js';

// dayjs's 'id' abbreviates August 'Agt'; the cards and tooltips print the browser's id-ID names ('Agu'): the field
// writes the same ones
const id = dayjs.Ls.id;
if (id) Object.assign(id, { months: monthNames('id-ID').long, monthsShort: monthNames('id-ID').short });

/** spec 03 section 9 */
export const DATE_TIME_FORMAT = 'MM/DD/YYYY HH:mm:ss';

/** the locales the field knows (dayjs locales; 'en' is built in) */
export type DateTimeLocale = 'en' | 'id';

export interface DateTimeFieldProps {
  label: string;
  /** epoch ms, or null when empty */
  value: number | null;
  /** epoch ms of a complete valid entry, or null (emptied, or not yet complete) */
  onChange(value: number | null): void;
  /** dayjs tokens; without hour, minute or second tokens the field picks a date only. Default MM/DD/YYYY HH:mm:ss */
  format?: string;
  locale?: DateTimeLocale;
  placeholder?: string;
  /** the earliest value offered (epoch ms); earlier entries show as an error */
  min?: number;
  /** the latest value offered (epoch ms) */
  max?: number;
  error?: boolean;
  helperText?: ReactNode;
  size?: 'small' | 'medium';
  fullWidth?: boolean;
  disabled?: boolean;
  name?: string;
}

/** whether a dayjs format shows a time of day */
export const hasTime = (format: string) => /[Hhms]/.test(format.replace(/\[[^\]]*\]/g, ''));

const toDayjs = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : dayjs(ms));

export function DateTimeField({
  label,
  value,
  onChange,
  format = DATE_TIME_FORMAT,
  locale = 'en',
  placeholder,
  min,
  max,
  error,
  helperText,
  size,
  fullWidth,
  disabled,
  name,
}: DateTimeFieldProps) {
  const change = (v: Dayjs | null) => onChange(v && v.isValid() ? v.valueOf() : null);
  const textField = { size, fullWidth, error, helperText, name, placeholder };
  const common = { label, value: toDayjs(value), onChange: change, format, disabled, slotProps: { textField } };
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale={locale}>
      {hasTime(format) ? (
        <DateTimePicker
          {...common}
          ampm={false}
          views={['year', 'month', 'day', 'hours', 'minutes', 'seconds']}
          timeSteps={{ hours: 1, minutes: 1, seconds: 1 }}
          minDateTime={toDayjs(min) ?? undefined}
          maxDateTime={toDayjs(max) ?? undefined}
        />
      ) : (
        <DatePicker {...common} minDate={toDayjs(min) ?? undefined} maxDate={toDayjs(max) ?? undefined} />
      )}
    </LocalizationProvider>
  );
}
