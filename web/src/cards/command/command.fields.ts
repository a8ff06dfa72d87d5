// The command cards' Visualisasi fields: title, icon, send button label; number cards min / max; text cards a max
// length; date cards their display formats. Their initial values ('Tombol perintah' / 'Kirim perintah', 'Kirim', 0–100,
// 30) are the definitions' defaults (command.cards.ts). The status line prints the device's status as the single value
// card prints a value (its unit, full number and the editor's decimals); the toggle's status is its ON/OFF.
import { COMMAND_DATE_DISPLAY_FORMATS, COMMAND_TIME_DISPLAY_FORMATS, T } from '@sentra/contracts';
import { LOCALE, SEND_BUTTON, choices, field, title } from '../common/viewFieldKit.js';

// the date cards print a date and a time of their own formats (the chart formats are axis and tooltip labels)
const DATE_CARD_FORMAT = field('date_format', 'select', { options: choices(COMMAND_DATE_DISPLAY_FORMATS) });
const TIME_FORMAT = field('time_format', 'select', { options: choices(COMMAND_TIME_DISPLAY_FORMATS) });
const STATUS = [field('unit', 'text'), field('unit_front', 'switch'), field('full_number', 'switch')];

export const BUTTON_FIELDS = [title(), field('pict', 'icon'), SEND_BUTTON, ...STATUS];
export const TOGGLE_FIELDS = [title(), field('pict', 'icon')];
export const NUMBER_FIELDS = [
  title(),
  field('pict', 'icon'),
  SEND_BUTTON,
  field('min', 'number'),
  field('max', 'number'),
  ...STATUS,
];
export const TEXT_FIELDS = [
  title(),
  field('pict', 'icon'),
  SEND_BUTTON,
  field('max', 'number', { label: T.dashboards.view.maxLength }),
  ...STATUS,
];
export const DATE_FIELDS = [
  title(),
  field('pict', 'icon'),
  SEND_BUTTON,
  LOCALE,
  DATE_CARD_FORMAT,
  TIME_FORMAT,
  ...STATUS,
];
