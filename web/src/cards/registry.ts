// Every card type, once (docs/conventions.md "One card type, one folder"): the definitions are found, not listed —
// every card definition exported (alone or in a list) by a `<folder>/*.card.ts` or `*.cards.ts` — and checked against the catalogue's codes
// (contracts `CARD_TYPES`, the one line per card type) by registry.test.ts. The view grid draws `registry[cat].view`,
// the editor reads sizes, queries and fields from the same definitions.
import { CARD_TYPE_CODES, isCardType, type CardTypeCode } from '@sentra/contracts';
import type { CardDefinition } from './common/definition.js';

const modules = import.meta.glob<Record<string, unknown>>(['./*/*.card.ts', './*/*.cards.ts'], { eager: true });

const isDefinition = (v: unknown): v is CardDefinition =>
  typeof v === 'object' && v !== null && 'type' in v && 'queryKind' in v && 'view' in v;

export const CARD_DEFINITIONS: readonly CardDefinition[] = Object.values(modules).flatMap((m) =>
  Object.values(m).flat().filter(isDefinition),
);

export const registry: Readonly<Record<CardTypeCode, CardDefinition>> = Object.fromEntries(
  CARD_DEFINITIONS.map((d) => [d.type, d]),
) as Record<CardTypeCode, CardDefinition>;

export function cardDefinition(cat: string): CardDefinition | undefined {
  return isCardType(cat) ? registry[cat] : undefined;
}

export { CARD_TYPE_CODES };
