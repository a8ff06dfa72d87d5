// The console's single page (web/dist/index.html) with the gateway's settings the browser needs before its first call,
// as meta tags: the base-map tile URL (MAP_TILE_URL) is configured once, on the gateway, and read from here by the
// map card; the same value opens the Content-Security-Policy to the tile origin (security.ts).
import { escapeAttribute } from './escape.js';

/** The meta tag names the console reads (web/src/cards/map/markers.ts reads `sentra-map-tile-url`). */
export const MAP_TILE_META = 'sentra-map-tile-url';

export interface ConsolePageOptions {
  mapTileUrl?: string;
}

/** index.html with the settings' meta tags at the end of its head. */
export function consolePage(indexHtml: string, opts: ConsolePageOptions = {}): string {
  const metas = opts.mapTileUrl ? `<meta name="${MAP_TILE_META}" content="${escapeAttribute(opts.mapTileUrl)}" />` : '';
  if (!metas) return indexHtml;
  const at = indexHtml.search(/<\/head>/i);
  return at < 0 ? metas + indexHtml : indexHtml.slice(0, at) + metas + indexHtml.slice(at);
}
