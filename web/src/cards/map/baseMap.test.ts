// @vitest-environment jsdom
// The ground under a map card: the configured tiles, else land and sea from the bundled Natural Earth layer.
import { describe, expect, it } from 'vitest';
import { baseLayerOf, worldShapes } from './baseMap.js';

describe('map base layer', () => {
  it('uses the gateway tiles when MAP_TILE_URL is set, the coastlines otherwise, and a floor plan its image', () => {
    expect(baseLayerOf({ floorPlan: false, tileUrl: 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png' })).toBe(
      'tiles',
    );
    expect(baseLayerOf({ floorPlan: false, tileUrl: undefined })).toBe('coastlines');
    expect(baseLayerOf({ floorPlan: true, tileUrl: 'https://t.example/{z}/{x}/{y}.png' })).toBe('floor-plan');
  });

  it('has land polygons for the countries (Indonesia among them) and the borders between them, from the bundled atlas', async () => {
    const { land, borders } = await worldShapes();
    const features = (land as unknown as { features: { properties: { name: string }; geometry: { type: string } }[] })
      .features;
    expect(features.length).toBeGreaterThan(150);
    const indonesia = features.find((f) => f.properties.name === 'Indonesia');
    expect(indonesia?.geometry.type).toBe('MultiPolygon');
    expect((borders as unknown as { type: string }).type).toBe('MultiLineString');
  });
});
