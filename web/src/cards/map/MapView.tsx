// MAP_CARD with Leaflet (loaded with this chunk only): device markers from map_marker (green online, grey offline, or
// the card's color_dot), their label and value as a tooltip, a track from coord_data. `map_type: 'image'` draws the
// model's image_url (a floor plan) as the whole map, latitude/longitude read as percent of its height/width. The
// base tiles come from the gateway's MAP_TILE_URL (a meta tag of the page); without one (or with the tile server
// unreachable) markers stay on a plain ground, fitted to their bounds, so the card is useful offline.
import { useEffect, useRef, useState } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { Box, Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import type { CardViewProps } from '../common/definition.js';
import { afterPaint } from '../common/afterPaint.js';
import { formatValue } from '../common/format.js';
import { OK_GREEN } from '../common/palette.js';
import { escapeHtml } from '../../ui/plainText.js';
import { CANVAS_MARKERS_FROM, markersOf, tileUrl, trackOf } from './markers.js';

interface MapViewFields {
  color_dot?: string;
  unit?: string;
  decimal?: number;
}

const OFFLINE_GREY = '#9e9e9e';

/** Whether this browser draws on a canvas (a test DOM may not): else every marker stays an SVG element. */
function canvasDrawable(): boolean {
  try {
    return !!document.createElement('canvas').getContext('2d');
  } catch {
    return false;
  }
}

export default function MapView({ component, view, data, decimals, height }: CardViewProps<MapViewFields>) {
  const host = useRef<HTMLDivElement>(null);
  /** the Leaflet map and its marker layer, made after the first paint */
  const [made, setMade] = useState<{ map: L.Map; layer: L.LayerGroup } | null>(null);
  /** the map's canvas for a large fleet: made when first needed (null: this browser draws no canvas) */
  const canvas = useRef<L.Renderer | null | undefined>(undefined);
  const fitted = useRef(false);
  /** what the marker layer holds: a circle per marker key, the track; a push moves and restyles them in place */
  const drawn = useRef<{ circles: Map<string, L.CircleMarker>; track?: L.Polyline }>({ circles: new Map() });
  const [tilesFailed, setTilesFailed] = useState(false);
  const model = (component.model ?? {}) as { map_type?: string; image_url?: string };
  const floorPlan = model.map_type === 'image' && typeof model.image_url === 'string' && model.image_url !== '';

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    let m: L.Map | undefined;
    // Leaflet measures its container (a forced layout) and builds its panes: ~20 ms that would otherwise land in the
    // commit that first shows a dashboard's values (React runs passive effects early when a layout effect sets state,
    // as the cards' size measurement does), so the map is made once that frame is painted
    const cancel = afterPaint(() => {
      m = L.map(el, { crs: floorPlan ? L.CRS.Simple : L.CRS.EPSG3857, zoomControl: true, attributionControl: false, minZoom: floorPlan ? -2 : 1 });
      if (floorPlan) {
        L.imageOverlay(model.image_url!, [[0, 0], [100, 100]]).addTo(m);
        m.fitBounds([[0, 0], [100, 100]]);
      } else {
        const url = tileUrl();
        if (url) L.tileLayer(url, { maxZoom: 19 }).on('tileerror', () => setTilesFailed(true)).addTo(m);
        m.setView([-2.5, 118], 4);
      }
      setMade({ map: m, layer: L.layerGroup().addTo(m) });
    });
    return () => {
      cancel();
      m?.remove();
      setMade(null);
      fitted.current = false;
      drawn.current = { circles: new Map() };
      canvas.current = undefined;
    };
  }, [floorPlan, model.image_url]);

  useEffect(() => {
    made?.map.invalidateSize();
  }, [made, height]);

  const markers = markersOf(data);
  const track = trackOf(data);
  useEffect(() => {
    if (!made) return;
    const { map: m, layer: g } = made;
    const have = drawn.current;
    const points: L.LatLngExpression[] = [];
    const trackColor = view.color_dot || '#1565c0';
    if (track.length > 1) {
      if (have.track) have.track.setLatLngs(track).setStyle({ color: trackColor });
      else have.track = L.polyline(track, { color: trackColor, weight: 3, opacity: 0.7 }).addTo(g);
      points.push(...track);
    } else if (have.track) {
      g.removeLayer(have.track);
      have.track = undefined;
    }
    const keys = new Set<string>();
    const large = markers.length >= CANVAS_MARKERS_FROM;
    if (large && canvas.current === undefined) canvas.current = canvasDrawable() ? L.canvas({ padding: 0.2 }) : null;
    const renderer = large ? (canvas.current ?? undefined) : undefined;
    for (const mk of markers) {
      let key = mk.id;
      for (let n = 2; keys.has(key); n++) key = `${mk.id}#${n}`; // the same device twice: both drawn
      keys.add(key);
      const color = view.color_dot || (mk.online === false ? OFFLINE_GREY : OK_GREEN);
      const value = mk.value !== undefined ? formatValue(mk.value, { unit: view.unit, decimal: view.decimal }, decimals) : undefined;
      // Leaflet writes a string tooltip or popup as HTML: the label (a member's or the device's name) and the value the
      // device sent are escaped, so they are shown as text (issue 23)
      const text = escapeHtml(value !== undefined && value !== T.cardViews.noValue ? `${mk.label}: ${value}` : mk.label);
      const popup = `<b>${escapeHtml(mk.label)}</b><br/>${escapeHtml(mk.online === false ? T.cardViews.offline : mk.online ? T.cardViews.online : '')}${value ? `<br/>${escapeHtml(value)}` : ''}`;
      const circle = have.circles.get(key);
      if (circle) {
        circle.setLatLng([mk.lat, mk.lon]).setStyle({ fillColor: color }).setTooltipContent(text).setPopupContent(popup);
      } else {
        const added = L.circleMarker([mk.lat, mk.lon], { radius: 8, color: '#ffffff', weight: 2, fillColor: color, fillOpacity: 0.95, renderer })
          .bindTooltip(text, { direction: 'top', offset: [0, -8] })
          .bindPopup(popup)
          .addTo(g);
        have.circles.set(key, added);
      }
      points.push([mk.lat, mk.lon]);
    }
    for (const [key, circle] of have.circles) if (!keys.has(key)) g.removeLayer(circle), have.circles.delete(key);
    if (!fitted.current && points.length > 0 && !floorPlan) {
      fitted.current = true;
      m.fitBounds(L.latLngBounds(points).pad(0.3), { maxZoom: 15 });
    }
    // only when what it draws changed: a re-render of the card (its frame, a parent) keeps the markers
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [made, data, view, decimals, floorPlan]);

  return (
    <Box sx={{ position: 'relative', height: '100%', minHeight: 80 }}>
      <Box ref={host} data-testid="map" data-markers={markers.length} sx={{ position: 'absolute', inset: 0, borderRadius: 1, overflow: 'hidden', bgcolor: '#e8eef3', '& .leaflet-container': { bgcolor: '#e8eef3' } }} />
      {markers.length === 0 && track.length === 0 && (
        <Typography variant="caption" color="text.secondary" sx={{ position: 'absolute', left: 8, bottom: 6, zIndex: 500, bgcolor: 'background.paper', px: 0.5, borderRadius: 0.5 }}>{T.cardViews.mapNoMarkers}</Typography>
      )}
      {tilesFailed && (
        <Typography variant="caption" color="text.secondary" sx={{ position: 'absolute', right: 8, bottom: 6, zIndex: 500, bgcolor: 'background.paper', px: 0.5, borderRadius: 0.5 }}>{T.cardViews.mapOfflineTiles}</Typography>
      )}
    </Box>
  );
}

