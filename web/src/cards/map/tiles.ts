// The map's tile layer: its attribution, how its pictures are asked for, and what the map does when they do not load.
// The gateway gives the URL (MAP_TILE_URL, by default OpenStreetMap's standard tiles; markers.ts tileUrl). Without
// internet (this machine, a closed plant network) the first tile fails before any loads: the tiles are taken off
// (their attribution with them) and the bundled land-and-sea layer is the ground. Where some load and others fail, the
// bundled layer shows through the holes under the tiles.

/** OpenStreetMap's tile policy asks for its attribution, linked to its copyright page. Our own text: no device input. */
export const OSM_ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener noreferrer">OpenStreetMap</a> contributors';

/** The attribution a tile server needs: OpenStreetMap's for its tiles; an operator's own server names none we know. */
export function tileAttribution(url: string): string | undefined {
  let host: string;
  try {
    host = new URL(url.replace('{s}.', 'a.'), 'http://gateway.invalid').hostname;
  } catch {
    return undefined;
  }
  return /(^|\.)openstreetmap\.org$/.test(host) ? OSM_ATTRIBUTION : undefined;
}

/**
 * How tile pictures are asked for: the page sends no referrer (Referrer-Policy: no-referrer), but OpenStreetMap's tile
 * policy wants the site's origin as Referer; only the origin, never the dashboard's address.
 */
export const TILE_REFERRER_POLICY = 'strict-origin-when-cross-origin' as const;

/** 'waiting': nothing loaded yet; 'tiles': the tiles are the ground; 'fallback': none loaded, the bundled layer is; 'holes': some failed, the bundled layer under them. */
export type TileState = 'waiting' | 'tiles' | 'fallback' | 'holes';

/** The next state after a tile loaded or failed (a failed tile's stand-in picture is not a load). */
export function tileEvent(state: TileState, event: 'load' | 'error'): TileState {
  if (state === 'fallback') return state;
  if (event === 'load') return state === 'waiting' ? 'tiles' : state;
  return state === 'waiting' ? 'fallback' : 'holes';
}
