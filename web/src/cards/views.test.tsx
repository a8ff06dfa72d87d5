// The one chunk of card views: every view module of a card type's folder is in views.ts, the map's excepted (it
// stays a chunk of its own, with Leaflet), so no definition's view is left in a chunk of its own by mistake.
import { describe, expect, it } from 'vitest';
import * as views from './views.js';

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
});
