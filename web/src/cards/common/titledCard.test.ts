// titledCard: the definition of a card that needs only its label, size, fields after the title and view.
import { describe, expect, it } from 'vitest';
import { titledCard } from './titledCard.js';
import { field } from './viewFieldKit.js';

describe('titledCard', () => {
  it('offers the title before its own fields, with its label and default size, group and query kind from the catalogue', () => {
    const card = titledCard('STRAIN_CARD', 'Strain', { w: 1, h: 4 }, 'StrainView', [field('unit', 'text')]);
    expect(card.fields.map((f) => f.name)).toEqual(['title', 'unit']);
    expect(card).toMatchObject({ type: 'STRAIN_CARD', label: 'Strain', category: 'single', queryKind: 'single' });
    expect(card.size.default).toEqual({ w: 1, h: 4 });
    expect(card.live).toBe(true);
  });

  it('offers only the title when the card has no field of its own', () => {
    expect(titledCard('SINGLE_IMAGE_CARD', 'Picture', { w: 2, h: 4 }, 'ImageView').fields.map((f) => f.name)).toEqual([
      'title',
    ]);
  });
});
