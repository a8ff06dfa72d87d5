// The markers of a map card from its live data (map_marker; coord_data as a track), pure so it is tested without Leaflet.
import type { CardData } from '@sentra/contracts';
import { asNumber } from '../common/format.js';

export interface MapMarker {
  id: string;
  label: string;
  lat: number;
  lon: number;
  online?: boolean;
  value?: unknown;
  status?: unknown;
  /** its newest reading (epoch ms) */
  time?: number;
}

export function markersOf(data: CardData | undefined): MapMarker[] {
  const out: MapMarker[] = [];
  for (const [i, m] of (data?.map_marker ?? []).entries()) {
    const lat = asNumber(m.latitude ?? m.lat);
    const lon = asNumber(m.longitude ?? m.lon ?? m.lng);
    if (lat === undefined || lon === undefined || Math.abs(lat) > 90 || Math.abs(lon) > 180) continue;
    out.push({
      id: String(m.device_id ?? i),
      label: String(m.label ?? m.device_id ?? i + 1),
      lat,
      lon,
      online: typeof m.online === 'boolean' ? m.online : undefined,
      value: m.value,
      status: m.status,
      time: typeof m.time === 'number' ? m.time : undefined,
    });
  }
  return out;
}

/** A GPS track from coord_data (x = longitude, y = latitude), oldest first. */
export function trackOf(data: CardData | undefined): [number, number][] {
  return (data?.coord_data ?? []).flatMap((p) => {
    const lon = asNumber(p.x);
    const lat = asNumber(p.y);
    return lat === undefined || lon === undefined ? [] : [[lat, lon] as [number, number]];
  });
}

/** The meta tag the gateway writes into the console's page from MAP_TILE_URL (server/src/platform/http/console-page.ts). */
export const MAP_TILE_META = 'sentra-map-tile-url';

/**
 * Where a map takes its base tiles: the gateway's MAP_TILE_URL (by default OpenStreetMap's), given in the page's meta
 * tag (one setting for the tiles and the Content-Security-Policy that allows their origin); none (`MAP_TILE_URL=off`):
 * markers on the bundled land-and-sea layer.
 */
export function tileUrl(
  doc: Pick<Document, 'querySelector'> | undefined = typeof document === 'undefined' ? undefined : document,
): string | undefined {
  const url = doc?.querySelector<HTMLMetaElement>(`meta[name="${MAP_TILE_META}"]`)?.content;
  return typeof url === 'string' && /^https?:\/\/|^\//.test(url) ? url : undefined;
}

/**
 * From this many markers on, a map paints new markers on one canvas instead of one SVG element each: a 300-device
 * fleet map spent about half as long in Leaflet while a dashboard drew its first frames (one profile: 88 → 47 ms), and
 * a push restyles one canvas instead of hundreds of elements. Tooltips, popups and in-place updates work the same.
 */
export const CANVAS_MARKERS_FROM = 50;
