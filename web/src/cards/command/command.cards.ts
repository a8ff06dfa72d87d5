// The command card types (spec 02 sections 2, 3, 4): each its own definition; plain, _TAGS_ (every device of the
// card's tags, confirmed first) and _CUSTOM_ variants share a view. Defaults: title 'Tombol perintah' (buttons,
// toggles) or 'Kirim perintah' (inputs), button label 'Kirim', number 0–100, text max 30, dates 'DD MMM YYYY HH:mm'.
// The editor's initial values are these (screens/dashboards/editor/viewFields.ts reads them); the fields are command.fields.ts.
import {
  COMMAND_DATE_DISPLAY_FORMATS,
  COMMAND_TIME_DISPLAY_FORMATS,
  DEFAULT_CARD_LOCALE,
  NUMBER_COMMAND_MAX,
  NUMBER_COMMAND_MIN,
  T,
  TEXT_COMMAND_MAX_LENGTH,
  type CardTypeCode,
} from '@sentra/contracts';
import { lazyView, type CardViewName } from '../common/lazyView.js';
import { defineCard } from '../common/definition.js';
import type { ViewFieldSpec } from '../common/viewFieldKit.js';
import { BUTTON_FIELDS, DATE_FIELDS, NUMBER_FIELDS, TEXT_FIELDS, TOGGLE_FIELDS } from './command.fields.js';

const c = T.dashboards.commands;
const BUTTON = { title: c.buttonTitle, button_label: c.send };
const NUMBER = { title: c.inputTitle, button_label: c.send, min: NUMBER_COMMAND_MIN, max: NUMBER_COMMAND_MAX };
const TEXT = { title: c.inputTitle, button_label: c.send, max: TEXT_COMMAND_MAX_LENGTH };
const TOGGLE = { title: c.buttonTitle };
const DATE = {
  title: c.inputTitle,
  button_label: c.send,
  locale: DEFAULT_CARD_LOCALE,
  date_format: COMMAND_DATE_DISPLAY_FORMATS[0],
  time_format: COMMAND_TIME_DISPLAY_FORMATS[0],
};

const command = (
  type: CardTypeCode,
  label: string,
  name: CardViewName,
  defaults: Record<string, unknown>,
  fields: readonly ViewFieldSpec[],
  size = { w: 1, h: 2 },
) => defineCard(type, { label, defaults, fields, size, view: lazyView(name) });

/** A command card with its `_TAGS_` and `_CUSTOM_` variants: one view, defaults and fields for the three. */
const withVariants = (
  base: 'BUTTON' | 'INPUT_NUMBER' | 'INPUT_TEXT' | 'INPUT_TOGGLE',
  label: string,
  name: CardViewName,
  defaults: Record<string, unknown>,
  fields: readonly ViewFieldSpec[],
) => [
  command(`${base}_CARD`, label, name, defaults, fields),
  command(`${base}_TAGS_CARD`, `${label} (tags)`, name, defaults, fields),
  command(`${base}_CUSTOM_CARD`, `${label} (custom)`, name, defaults, fields),
];

export const buttonCards = withVariants('BUTTON', 'Button', 'ButtonView', BUTTON, BUTTON_FIELDS);
export const numberCards = withVariants('INPUT_NUMBER', 'Number input', 'NumberView', NUMBER, NUMBER_FIELDS);
export const textCards = withVariants('INPUT_TEXT', 'Text input', 'TextView', TEXT, TEXT_FIELDS);
export const toggleCards = withVariants('INPUT_TOGGLE', 'Toggle', 'ToggleView', TOGGLE, TOGGLE_FIELDS);
export const inputDateCard = command('INPUT_DATE_CARD', 'Date', 'DateView', DATE, DATE_FIELDS);
export const inputDateRangeCard = command('INPUT_DATE_RANGE_CARD', 'Date range', 'DateRangeView', DATE, DATE_FIELDS, {
  w: 2,
  h: 2,
});
