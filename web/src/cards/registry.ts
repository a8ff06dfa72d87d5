// Every card type, once (docs/conventions.md "One card type, one folder"): the view grid draws `registry[cat].view`,
// the editor reads sizes, queries and fields from the same definitions. registry.test.ts walks it.
import { CARD_TYPE_CODES, isCardType, type CardTypeCode } from '@sentra/contracts';
import type { CardDefinition } from './common/definition.js';
import { singleValueCard } from './single-value/singleValue.card.js';
import { imageCard } from './image/image.card.js';
import { embeddedCard } from './embedded/embedded.card.js';
import { threePhaseCard } from './three-phase/threePhase.card.js';
import { coordinateCard } from './coordinate/coordinate.card.js';
import { strainCard } from './strain/strain.card.js';
import { crackCard } from './crack/crack.card.js';
import { mapCard } from './map/map.card.js';
import { dropdownCard } from './dropdown/dropdown.card.js';
import { titleCard } from './title/title.card.js';
import { dataValueCard } from './data-value/dataValue.card.js';
import { listCard, listCustomCard, listPaymentCard, listTransactionCard } from './list/list.cards.js';
import * as charts from './chart/chart.cards.js';
import * as commands from './command/command.cards.js';
import { downloadCard } from './download/download.card.js';
import { uploadCard } from './upload/upload.card.js';
import { webserviceCard, webserviceFetchCard } from './webservice/webservice.cards.js';

export const CARD_DEFINITIONS: readonly CardDefinition[] = [
  singleValueCard,
  imageCard,
  embeddedCard,
  threePhaseCard,
  coordinateCard,
  strainCard,
  crackCard,
  mapCard,
  dropdownCard,
  titleCard,
  dataValueCard,
  listCard,
  listCustomCard,
  listTransactionCard,
  listPaymentCard,
  ...Object.values(charts).filter((d): d is CardDefinition => typeof d === 'object' && d !== null && 'queryKind' in d),
  ...Object.values(commands),
  downloadCard,
  uploadCard,
  webserviceCard,
  webserviceFetchCard,
];

export const registry: Readonly<Record<CardTypeCode, CardDefinition>> = Object.fromEntries(
  CARD_DEFINITIONS.map((d) => [d.type, d]),
) as Record<CardTypeCode, CardDefinition>;

export function cardDefinition(cat: string): CardDefinition | undefined {
  return isCardType(cat) ? registry[cat] : undefined;
}

export { CARD_TYPE_CODES };
