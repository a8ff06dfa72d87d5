// The definition of a card that needs nothing but its label, default size, the Visualisasi fields after the title and
// its view (coordinate, crack, strain, picture): group, query kind and minimum size come from the catalogue (defineCard).
import type { CardTypeCode } from '@sentra/contracts';
import { defineCard, type CardDefinition } from './definition.js';
import { lazyView, type CardViewName } from './lazyView.js';
import { title, type ViewFieldSpec } from './viewFieldKit.js';

export function titledCard(
  type: CardTypeCode,
  label: string,
  size: { w: number; h: number },
  view: CardViewName,
  fields: readonly ViewFieldSpec[] = [],
): CardDefinition {
  return defineCard(type, { label, size, fields: [title(), ...fields], view: lazyView(view) });
}
