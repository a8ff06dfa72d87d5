// A dense fleet on a map card: markers close together on screen join a cluster with their count and how many are
// online; zoomed in far enough every marker stands alone; far-apart markers never cluster.
import { describe, expect, it } from 'vitest';
import { CLUSTER_MAX_ZOOM, clusterMarkers, clusterRadius } from './clusters.js';
import type { MapMarker } from './markers.js';

/** `n` trucks around Jakarta, within ~1 km, the first `online` of them online. */
function jakartaFleet(n: number, online: number): MapMarker[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `truck-${i}`,
    label: `Truk ${i}`,
    lat: -6.2 + (i % 10) * 0.001,
    lon: 106.8 + Math.floor(i / 10) * 0.001,
    online: i < online,
  }));
}

describe('map clustering', () => {
  it('groups a dense fleet into one cluster at country zoom, counting the online ones', () => {
    const items = clusterMarkers(jakartaFleet(300, 120)).at(5);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: 'cluster', count: 300, online: 120, offline: 180 });
  });

  it('draws every marker on its own from the street zoom', () => {
    const fleet = jakartaFleet(30, 30);
    const items = clusterMarkers(fleet).at(CLUSTER_MAX_ZOOM + 2);
    expect(items).toHaveLength(30);
    expect(items.every((i) => i.kind === 'marker')).toBe(true);
    expect(new Set(items.map((i) => (i.kind === 'marker' ? i.marker.id : '')))).toEqual(
      new Set(fleet.map((m) => m.id)),
    );
  });

  it('keeps markers far apart as markers (Jakarta and Surabaya at country zoom)', () => {
    const items = clusterMarkers([
      { id: 'a', label: 'Jakarta', lat: -6.2, lon: 106.8 },
      { id: 'b', label: 'Surabaya', lat: -7.25, lon: 112.75 },
    ]).at(5);
    expect(items.map((i) => i.kind)).toEqual(['marker', 'marker']);
  });

  it('splits a cluster at its expansion zoom, never deeper than the street zoom', () => {
    const c = clusterMarkers(jakartaFleet(50, 50));
    const cluster = c.at(5)[0]!;
    expect(cluster.kind).toBe('cluster');
    const z = c.expansionZoom((cluster as { id: number }).id);
    expect(z).toBeGreaterThan(5);
    expect(z).toBeLessThanOrEqual(CLUSTER_MAX_ZOOM);
    expect(c.at(z).length).toBeGreaterThan(1);
  });

  it('grows a cluster with its count, within bounds', () => {
    expect(clusterRadius(2)).toBeGreaterThanOrEqual(12);
    expect(clusterRadius(300)).toBeGreaterThan(clusterRadius(5));
    expect(clusterRadius(1_000_000)).toBeLessThanOrEqual(26);
  });
});
