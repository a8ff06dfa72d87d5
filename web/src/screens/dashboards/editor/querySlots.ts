// The query rows the component editor asks for, by the card type's query kind (contracts catalogue `CARD_TYPES`): one
// entry per kind, so a card type of an existing kind needs nothing here, and a new kind adds its entry (the type check
// asks for it). The server evaluates the same kinds in server/src/modules/cards/cardKinds.ts.
import { CARD_TYPES, type CardTypeCode, type QueryKind, type QueryType } from '@sentra/contracts';

/** The queries a card asks for, by role: where each is stored and which query editor draws it. */
export type QueryRole = 'value' | 'latitude' | 'longitude' | 'status' | 'command';
export interface QuerySlot {
  role: QueryRole;
  required: boolean;
  /** the query editor's kind (its Query options) */
  kind: QueryKind;
  /** a fixed query type: the editor shows no Query selector */
  fixedQueryType?: QueryType;
}

const value = (kind: QueryKind): QuerySlot[] => [{ role: 'value', required: true, kind }];
/** Command cards command a target (stored in `model.config`) and may show a status line. */
const command = (fixedQueryType: QueryType): QuerySlot[] => [
  { role: 'command', required: true, kind: 'single', fixedQueryType },
  { role: 'status', required: false, kind: 'single' },
];

const SLOTS: Record<QueryKind, QuerySlot[]> = {
  single: value('single'),
  coordinate: value('coordinate'),
  threeValue: value('threeValue'),
  threePhase: value('threePhase'),
  list: value('list'),
  chart: value('chart'),
  // "Map needs latitude and longitude", with an optional marker value
  map: [
    { role: 'latitude', required: true, kind: 'map' },
    { role: 'longitude', required: true, kind: 'map' },
    { role: 'value', required: false, kind: 'map' },
  ],
  // the title's device fact is optional
  title: [{ role: 'value', required: false, kind: 'title' }],
  // Manual commands one device; By All/Tags the sensors tree of every device of the card's tags
  command: command('device'),
  tagCommand: command('device_no_id'),
  none: [],
};

/** The query slots of a card type, from its query kind. */
export function querySlots(cat: CardTypeCode): QuerySlot[] {
  return SLOTS[CARD_TYPES[cat].kind];
}
