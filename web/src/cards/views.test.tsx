// The one chunk of card views: every view module of a card type's folder is in views.ts, the map's excepted (it
// stays a chunk of its own, with Leaflet), so no definition's view is left in a chunk of its own by mistake; and its
// names are the views' own.
import { describe, expect, it } from 'vitest';
import { views } from './views.js';

const modules = import.meta.glob<Record<string, unknown>>(['./*/*View.tsx', './*/*Views.tsx'], { eager: true });

describe('card views chunk', () => {
  it("holds a view of every view module but the map's", () => {
    const held = new Set<unknown>(Object.values(views));
    const files = Object.keys(modules).sort();
    expect(files).toContain('./single-value/SingleValueView.tsx');
    expect(files).toContain('./command/CommandViews.tsx');
    for (const file of files) {
      const inChunk = Object.values(modules[file]!).some((v) => held.has(v));
      expect(inChunk, file).toBe(file !== './map/MapView.tsx');
    }
  });
  it('names each view by its export, a default export by its file, and nothing but views', () => {
    expect(views.SingleValueView).toBe(modules['./single-value/SingleValueView.tsx']!.default);
    expect(views.ButtonView).toBe(modules['./command/CommandViews.tsx']!.ButtonView);
    expect(views.AutoListView).toBe(modules['./list/ListView.tsx']!.AutoListView);
    expect(Object.keys(views).every((name) => name.endsWith('View'))).toBe(true);
    expect(views).not.toHaveProperty('MapView');
  });
});
