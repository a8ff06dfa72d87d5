// The ground under a map card's markers. With the gateway's MAP_TILE_URL: its tiles (OpenStreetMap style). Without
// one, or while the tile server cannot be reached (no internet, tests): land and sea from Natural Earth's 1:110m
// countries (the world-atlas package, ~100 kB, fetched only when a map needs it), so a fleet still sits on a coast.
import L from 'leaflet';

/** OpenStreetMap's own sea and land colours, so the fallback reads like the tiles it stands in for. */
export const SEA_COLOR = '#aad3df';
export const LAND_COLOR = '#f2efe9';
const BORDER_COLOR = '#b8a9c0';

/** A transparent pixel for a tile that failed: the coastline layer below shows through (no broken-image icons). */
export const EMPTY_TILE = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** The pane of the fallback land: under the tiles (tilePane is 200), above the map's background. */
const FALLBACK_PANE = 'sentra-coastlines';

export type BaseLayer = 'floor-plan' | 'tiles' | 'coastlines';

/** Which ground a map draws: a floor plan's image, the configured tiles (coastlines below, for failed tiles), or coastlines alone. */
export function baseLayerOf(opts: { floorPlan: boolean; tileUrl: string | undefined }): BaseLayer {
  if (opts.floorPlan) return 'floor-plan';
  return opts.tileUrl ? 'tiles' : 'coastlines';
}

type WorldShapes = { land: GeoJSON.GeoJsonObject; borders: GeoJSON.GeoJsonObject };
let shapes: Promise<WorldShapes> | undefined;

/** Natural Earth's countries as GeoJSON: land polygons and the borders between them (loaded once per page). */
export function worldShapes(): Promise<WorldShapes> {
  shapes ??= Promise.all([import('topojson-client'), import('world-atlas/countries-110m.json')])
    .then(([topo, atlasModule]) => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const atlas = ((atlasModule as any).default ?? atlasModule) as any;
      const countries = atlas.objects.countries;
      return {
        land: topo.feature(atlas, countries) as unknown as GeoJSON.GeoJsonObject,
        borders: topo.mesh(atlas, countries, (a: unknown, b: unknown) => a !== b) as unknown as GeoJSON.GeoJsonObject,
      };
    })
    .catch((err) => {
      shapes = undefined; // a failed chunk: the next map tries again
      throw err;
    });
  return shapes;
}

/**
 * Draws the coastline ground on `map` once the shapes are loaded; returns a function that cancels or removes it.
 * `onDrawn` is told when the land is on the map (the card marks itself for tests and screenshots).
 */
export function addCoastlines(map: L.Map, onDrawn?: () => void): () => void {
  let layer: L.LayerGroup | undefined;
  let cancelled = false;
  void worldShapes()
    .then(({ land, borders }) => {
      if (cancelled) return;
      if (!map.getPane(FALLBACK_PANE)) map.createPane(FALLBACK_PANE).style.zIndex = '150';
      const renderer = L.svg({ pane: FALLBACK_PANE, padding: 0.5 });
      layer = L.layerGroup([
        L.geoJSON(land, {
          pane: FALLBACK_PANE,
          interactive: false,
          style: { renderer, stroke: false, fillColor: LAND_COLOR, fillOpacity: 1 } as L.PathOptions,
        }),
        L.geoJSON(borders, {
          pane: FALLBACK_PANE,
          interactive: false,
          style: { renderer, color: BORDER_COLOR, weight: 0.8, fill: false } as L.PathOptions,
        }),
      ]).addTo(map);
      onDrawn?.();
    })
    .catch((err) => console.error('map coastlines failed to load', err));
  return () => {
    cancelled = true;
    layer?.remove();
  };
}
