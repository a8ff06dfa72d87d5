// The base-map tile URL (MAP_TILE_URL): which values are accepted, and the origin the console loads tiles from.

/**
 * Without a setting the map cards show OpenStreetMap's standard tiles (as ThingsBoard and Grafana's Geomap do), with
 * OpenStreetMap's attribution (the console adds it for this host); the browser falls back to the bundled land-and-sea
 * layer when they do not load.
 */
export const DEFAULT_MAP_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
/** `MAP_TILE_URL=off`: no tile server at all; nothing a map shows leaves the network. */
export const MAP_TILES_OFF = 'off';
/** A base-map tile URL template (`https://{s}.tile.example.org/{z}/{x}/{y}.png`) or a path on the gateway (`/tiles/...`). */
const TILE_URL =
  /^(?:(https?):\/\/((?:\{s\}\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::\d{1,5})?)(?:[/?][^\s"'<>`\\]*)?|\/[^\s"'<>`\\]*)$/;

/** Whether `url` is a tile URL the console and its policy accept (see TILE_URL); used by the configuration. */
export const isTileUrl = (url: string): boolean => url.length <= 2048 && TILE_URL.test(url);

/**
 * The origin a tile URL loads its pictures from, as a CSP source: `https://{s}.tile.example.org/...` gives
 * `https://*.tile.example.org` (Leaflet fills `{s}` with a subdomain letter); a path on the gateway needs none ('self').
 */
export function tileOrigin(url: string | undefined): string | undefined {
  const m = url ? TILE_URL.exec(url) : null;
  if (!m || !m[1]) return undefined;
  return `${m[1]}://${m[2]!.replace('{s}.', '*.')}`;
}
