// The shape of a card type (docs/conventions.md "One card type, one folder"): type code, category, zod config schema,
// defaults,
// minimum and default size, query options, lazy view, editor (Visualisasi) fields. `defineCard` takes the catalogue's group,
// query kind and minimum size (spec 02 section 5) so a definition cannot disagree with the schema that stores cards.
import type { ComponentType, LazyExoticComponent } from 'react';
import { z } from 'zod';
import {
  CARD_TYPES,
  ComponentView,
  QUERY_OPTIONS,
  type CardData,
  type CardGroup,
  type CardTypeCode,
  type QueryKind,
  type QueryOption,
} from '@sentra/contracts';
import type { ViewFieldSpec } from './viewFieldKit.js';
import type { CardState } from '../../dashboards/live/cardFeed.js';

/** A component as the view grid hands it over (stored, read leniently). */
export interface CardComponent {
  key: string;
  cat: string;
  x: number;
  y: number;
  w: number;
  h: number;
  view?: Record<string, unknown>;
  model?: Record<string, unknown>;
  var?: Record<string, unknown>;
  config?: Record<string, unknown>;
  [field: string]: unknown;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface CardViewProps<V = any> {
  component: CardComponent;
  /** the component's view, parsed with the definition's schema and its defaults */
  view: V;
  /** the live data (undefined until the first frame) */
  data?: CardData;
  state?: CardState;
  dashboardId: number;
  /** pixels the body may use */
  width?: number;
  height: number;
  /** dashboard decimals (conf_dashboard.view.decimal) */
  decimals?: number;
}

export interface CardSizeSpec {
  min: { w: number; h: number };
  default: { w: number; h: number };
  /** the download card: exactly its minimum */
  fixed?: boolean;
}

export interface CardDefinition<V = Record<string, unknown>> {
  type: CardTypeCode;
  category: CardGroup;
  /** what the card shows, for people (the type picker, errors) */
  label: string;
  /** the view fields this card reads, with their defaults applied by `parse` */
  config: z.ZodType<V>;
  /** a new card's view (must parse with `config`) */
  defaults: Record<string, unknown>;
  size: CardSizeSpec;
  queryKind: QueryKind;
  /** the query functions the editor offers this card */
  queryOptions: readonly QueryOption[];
  /** whether the card reads live data (false: embedded page, dropdown, upload, title without a query) */
  live: boolean;
  /** 'bare': the card draws its whole surface (title bar included); 'framed' (default): the frame draws the title */
  chrome: 'framed' | 'bare';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  view: LazyExoticComponent<ComponentType<CardViewProps<any>>>;
  /** the Visualisasi fields the editor offers (their initial values come from `defaults`: viewFieldsOf) */
  fields: readonly ViewFieldSpec[];
}

export interface CardDefinitionInput<V> {
  label: string;
  /** extra view fields beyond ComponentView, or narrower ones; ComponentView's own fields are always accepted */
  config?: z.ZodType<V>;
  defaults?: Record<string, unknown>;
  /** default size; the minimum comes from the catalogue */
  size?: { w: number; h: number };
  live?: boolean;
  chrome?: 'framed' | 'bare';
  /** the Visualisasi fields (built with common/viewFieldKit.ts) */
  fields: readonly ViewFieldSpec[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  view: LazyExoticComponent<ComponentType<CardViewProps<any>>>;
}

/** The view schema most cards use: the stored view fields (ComponentView), unknown extras kept. */
export const baseViewSchema = ComponentView as unknown as z.ZodType<Record<string, unknown>>;

/** ComponentView with a card's own fields (narrower types or extras the manual JSON editor may set). */
export const viewSchema = (extra: z.ZodRawShape) =>
  ComponentView.extend(extra) as unknown as z.ZodType<Record<string, unknown>>;

export function defineCard<V = Record<string, unknown>>(
  type: CardTypeCode,
  input: CardDefinitionInput<V>,
): CardDefinition<V> {
  const info = CARD_TYPES[type];
  const size = info.size as { minW: number; minH: number; fixedW?: number; fixedH?: number };
  const min = { w: size.fixedW ?? size.minW, h: size.fixedH ?? size.minH };
  const fixed = size.fixedW !== undefined && size.fixedH !== undefined;
  return {
    type,
    category: info.group,
    label: input.label,
    config: (input.config ?? baseViewSchema) as z.ZodType<V>,
    defaults: input.defaults ?? {},
    size: { min, default: fixed ? min : (input.size ?? min), fixed },
    queryKind: info.kind,
    queryOptions: QUERY_OPTIONS[info.kind].flatMap((g) => g.options),
    live: input.live ?? info.kind !== 'none',
    chrome: input.chrome ?? 'framed',
    view: input.view,
    fields: input.fields,
  };
}
