// MAP_CARD with Leaflet (loaded with this chunk only): device markers from map_marker (green online, grey offline, or
// the card's color_dot), their label and value as a tooltip, a popup with the card's values, the last update and a link
// to the device; a track from coord_data. `map_type: 'image'` draws the model's image_url (a floor plan) as the whole
// map, latitude/longitude read as percent of its height/width. The base tiles come from the gateway's MAP_TILE_URL
// (OpenStreetMap's by default, with its attribution); offline, or where tiles do not load, land and sea come from a
// bundled Natural Earth layer (baseMap.ts, tiles.ts). The map fits its markers when they first come; markers close
// together on screen join a cluster with their count (clusters.ts); a click zooms in to split it.
import { useEffect, useMemo, useRef, useState } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import './canvasTeardown.js';
import { Box, Typography } from '@mui/material';
import { T } from '@sentra/contracts';
import type { CardViewProps } from '../common/definition.js';
import { afterPaint } from '../common/afterPaint.js';
import { formatValue } from '../common/format.js';
import { OK_GREEN } from '../common/palette.js';
import { escapeHtml } from '../../ui/plainText.js';
import { useDeviceLinks } from '../common/deviceLinks.js';
import { CANVAS_MARKERS_FROM, markersOf, tileUrl, trackOf, type MapMarker } from './markers.js';
import { addCoastlines, baseLayerOf, EMPTY_TILE, SEA_COLOR } from './baseMap.js';
import { CLUSTER_MARKERS_FROM, clusterMarkers, clusterRadius, type MapItem } from './clusters.js';
import { markerPopup, type PopupFields } from './popup.js';
import { TILE_REFERRER_POLICY, tileAttribution, tileEvent, type TileState } from './tiles.js';

interface MapViewFields {
  color_dot?: string;
  unit?: string;
  decimal?: number;
}

const OFFLINE_GREY = '#9e9e9e';
/** A fleet is fitted no closer than this (a street's scale): one device alone is not shown at the tiles' last zoom. */
const FIT_MAX_ZOOM = 16;

/** Whether this browser draws on a canvas (a test DOM may not): else every marker stays an SVG element. */
function canvasDrawable(): boolean {
  try {
    return !!document.createElement('canvas').getContext('2d');
  } catch {
    return false;
  }
}

/**
 * A cluster: a round badge with its count (a number we computed, never device text), green while any of its devices
 * is online, grey when all are offline; its tooltip says how many are online. A click zooms in until it splits.
 */
function clusterLook(c: Extract<MapItem, { kind: 'cluster' }>) {
  const r = clusterRadius(c.count);
  const color = c.online > 0 || c.offline < c.count ? OK_GREEN : OFFLINE_GREY;
  /** made only for a badge drawn or changed: most pushes leave a badge as it was */
  const icon = () =>
    L.divIcon({
      className: 'sentra-map-cluster',
      iconSize: [r * 2, r * 2],
      html: `<div data-testid="map-cluster" style="width:${r * 2}px;height:${r * 2}px;border-radius:50%;background:${color};opacity:.9;border:2px solid #fff;box-shadow:0 0 0 3px ${color}55;color:#fff;font:700 12px/1 Roboto,Arial,sans-serif;display:flex;align-items:center;justify-content:center;box-sizing:border-box">${Number(c.count)}</div>`,
    });
  const tooltip = escapeHtml(T.cardViews.mapCluster(c.count, c.online));
  return { icon, tooltip, r, sig: `${c.count}|${color}|${tooltip}` };
}

/** a cluster badge on the map, kept across pushes while its cluster stays (`go`: where its click zooms, the latest) */
interface DrawnCluster {
  marker: L.Marker;
  sig: string;
  go: () => void;
}

/**
 * Draws the clusters of this push: a badge already drawn for the same cluster (the same id at the same zoom) is moved
 * and, when its count or share changed, given its new look in place; the others are added, and the badges of clusters
 * gone are removed. Redrawing every badge on every push (a live fleet pushes every few seconds) made a badge under
 * the pointer lose its tooltip and a click in flight land on nothing.
 */
function drawClusters(
  layer: L.LayerGroup,
  have: Map<string, DrawnCluster>,
  zoom: number,
  clusters: Extract<MapItem, { kind: 'cluster' }>[],
  zoomInto: (c: Extract<MapItem, { kind: 'cluster' }>) => void,
) {
  const shown = new Set<string>();
  for (const c of clusters) {
    const key = `${Math.floor(zoom)}:${c.id}`;
    shown.add(key);
    const look = clusterLook(c);
    const go = () => zoomInto(c);
    const had = have.get(key);
    if (had) {
      had.go = go;
      const at = had.marker.getLatLng();
      if (at.lat !== c.lat || at.lng !== c.lon) had.marker.setLatLng([c.lat, c.lon]);
      if (had.sig !== look.sig) {
        had.sig = look.sig;
        had.marker
          .setIcon(look.icon())
          .unbindTooltip()
          .bindTooltip(look.tooltip, { direction: 'top', offset: [0, -look.r] });
      }
      continue;
    }
    const drawn: DrawnCluster = {
      sig: look.sig,
      go,
      marker: L.marker([c.lat, c.lon], { icon: look.icon(), keyboard: false }),
    };
    drawn.marker
      .bindTooltip(look.tooltip, { direction: 'top', offset: [0, -look.r] })
      .on('click', () => drawn.go())
      .addTo(layer);
    have.set(key, drawn);
  }
  for (const [key, c] of have) if (!shown.has(key)) (layer.removeLayer(c.marker), have.delete(key));
}

export default function MapView({ component, view, data, decimals, height }: CardViewProps<MapViewFields>) {
  const host = useRef<HTMLDivElement>(null);
  /** the Leaflet map, its marker layer and its cluster layer, made after the first paint */
  const [made, setMade] = useState<{ map: L.Map; layer: L.LayerGroup; clusters: L.LayerGroup } | null>(null);
  /** the map's zoom (whole levels): clusters are regrouped when it changes */
  const [zoom, setZoom] = useState(4);
  /** which ground is drawn: for tests and screenshots (data-base-layer) */
  const [ground, setGround] = useState<'none' | 'tiles' | 'coastlines' | 'floor-plan'>('none');
  /** the map's canvas for a large fleet: made when first needed (null: this browser draws no canvas) */
  const canvas = useRef<L.Renderer | null | undefined>(undefined);
  const fitted = useRef(false);
  /** what the layers hold: a circle per marker key, a badge per cluster, the track; a push moves and restyles them in
   * place */
  const drawn = useRef<{
    circles: Map<string, L.CircleMarker>;
    clusters: Map<string, DrawnCluster>;
    track?: L.Polyline;
  }>({ circles: new Map(), clusters: new Map() });
  const [tilesFailed, setTilesFailed] = useState(false);
  /** what a marker's popup shows, by marker key: read when a popup opens (or is open while a push comes) */
  const popups = useRef(new Map<string, { marker: MapMarker; fields: PopupFields }>());
  const links = useDeviceLinks();
  const model = (component.model ?? {}) as { map_type?: string; image_url?: string };
  const floorPlan = model.map_type === 'image' && typeof model.image_url === 'string' && model.image_url !== '';

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    let m: L.Map | undefined;
    let removeCoastlines: (() => void) | undefined;
    // Leaflet measures its container (a forced layout) and builds its panes: ~20 ms that would otherwise land in the
    // commit that first shows a dashboard's values (React runs passive effects early when a layout effect sets state,
    // as the cards' size measurement does), so the map is made once that frame is painted
    const cancel = afterPaint(() => {
      m = L.map(el, {
        crs: floorPlan ? L.CRS.Simple : L.CRS.EPSG3857,
        zoomControl: true,
        attributionControl: false,
        minZoom: floorPlan ? -2 : 1,
      });
      // the tiles' attribution (OpenStreetMap's), shown while they are on the map; no "Leaflet" prefix
      L.control.attribution({ prefix: false }).addTo(m);
      const base = baseLayerOf({ floorPlan, tileUrl: tileUrl() });
      if (base === 'floor-plan') {
        L.imageOverlay(model.image_url!, [
          [0, 0],
          [100, 100],
        ]).addTo(m);
        m.fitBounds([
          [0, 0],
          [100, 100],
        ]);
        setGround('floor-plan');
      } else {
        if (base === 'tiles') {
          const url = tileUrl()!;
          let state: TileState = 'waiting';
          const tiles = L.tileLayer(url, {
            maxZoom: 19,
            errorTileUrl: EMPTY_TILE,
            attribution: tileAttribution(url),
            referrerPolicy: TILE_REFERRER_POLICY,
          });
          const next = (event: 'load' | 'error') => {
            const was = state;
            state = tileEvent(state, event);
            if (state === was) return;
            if (state === 'tiles') setGround((g) => (g === 'none' ? 'tiles' : g));
            if (state === 'fallback' || state === 'holes') {
              setTilesFailed(true);
              removeCoastlines ??= addCoastlines(m!, () => setGround('coastlines'));
            }
            // none loaded (no internet, the tile server unreachable): the tiles go, and their attribution with them
            if (state === 'fallback') m!.removeLayer(tiles);
          };
          tiles
            .on('tileload', (e: L.TileEvent) => e.tile.src !== EMPTY_TILE && next('load'))
            .on('tileerror', () => next('error'))
            .addTo(m);
        } else {
          removeCoastlines = addCoastlines(m, () => setGround('coastlines'));
        }
        m.setView([-2.5, 118], 4);
      }
      m.on('zoomend', () => setZoom(m!.getZoom()));
      setZoom(m.getZoom());
      setMade({ map: m, layer: L.layerGroup().addTo(m), clusters: L.layerGroup().addTo(m) });
    });
    return () => {
      cancel();
      removeCoastlines?.();
      m?.remove();
      setGround('none');
      setMade(null);
      fitted.current = false;
      drawn.current = { circles: new Map(), clusters: new Map() };
      popups.current.clear();
      canvas.current = undefined;
    };
  }, [floorPlan, model.image_url]);

  useEffect(() => {
    const el = host.current;
    if (!made || !el) return;
    made.map.invalidateSize();
    // the card's width changes without its height (a window resized across a breakpoint: 4 columns ⇄ one): Leaflet's
    // own window listener may measure before the grid has laid out again, so the map follows its box instead
    if (typeof ResizeObserver !== 'function') return;
    const watch = new ResizeObserver(() => made.map.invalidateSize());
    watch.observe(el);
    return () => watch.disconnect();
  }, [made, height]);

  const markers = useMemo(() => markersOf(data), [data]);
  const track = trackOf(data);
  /** a floor plan or a small fleet shows every marker; a dense fleet on a geographic map groups the close ones */
  const grouped = useMemo(
    () => (floorPlan || markers.length < CLUSTER_MARKERS_FROM ? undefined : clusterMarkers(markers)),
    [markers, floorPlan],
  );
  useEffect(() => {
    if (!made) return;
    const { map: m, layer: g, clusters: cg } = made;
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
    // a marker's key: its device id (the same device twice: both drawn, the second as id#2)
    const keyOf = new Map<number, string>();
    markers.forEach((mk, i) => {
      let key = mk.id;
      for (let n = 2; keys.has(key); n++) key = `${mk.id}#${n}`;
      keys.add(key);
      keyOf.set(i, key);
      points.push([mk.lat, mk.lon]);
    });
    const items: MapItem[] = grouped
      ? grouped.at(zoom)
      : markers.map((marker, index) => ({ kind: 'marker', marker, index }));
    const clusters = items.filter((i) => i.kind === 'cluster');
    drawClusters(cg, have.clusters, zoom, clusters, (c) => m.setView([c.lat, c.lon], grouped!.expansionZoom(c.id)));
    const shown = new Set<string>();
    for (const item of items) {
      if (item.kind === 'cluster') continue;
      const mk: MapMarker = item.marker;
      const key = keyOf.get(item.index)!;
      shown.add(key);
      const color = view.color_dot || (mk.online === false ? OFFLINE_GREY : OK_GREEN);
      const value =
        mk.value !== undefined
          ? formatValue(mk.value, { unit: view.unit, decimal: view.decimal }, decimals)
          : undefined;
      // Leaflet writes a string tooltip as HTML: the label (a member's or the device's name) and the value the device
      // sent are escaped, so they are shown as text (issue 23); the popup is built from text nodes (popup.ts)
      const text = escapeHtml(
        value !== undefined && value !== T.cardViews.noValue ? `${mk.label}: ${value}` : mk.label,
      );
      const id = Number(mk.id);
      popups.current.set(key, {
        marker: mk,
        fields: {
          value,
          status: mk.status !== undefined ? formatValue(mk.status, undefined) : undefined,
          link: links && Number.isInteger(id) && id > 0 ? links(id) : undefined,
        },
      });
      const circle = have.circles.get(key);
      if (circle) {
        circle.setLatLng([mk.lat, mk.lon]).setStyle({ fillColor: color }).setTooltipContent(text);
        // an open popup follows the push (its content is read again)
        if (circle.isPopupOpen()) circle.getPopup()?.update();
      } else {
        const added = L.circleMarker([mk.lat, mk.lon], {
          radius: 8,
          color: '#ffffff',
          weight: 2,
          fillColor: color,
          fillOpacity: 0.95,
          renderer,
        })
          .bindTooltip(text, { direction: 'top', offset: [0, -8] })
          .bindPopup(() => {
            const p = popups.current.get(key);
            return p ? markerPopup(p.marker, p.fields) : '';
          })
          .addTo(g);
        have.circles.set(key, added);
      }
    }
    // markers gone from the data, or inside a cluster at this zoom
    for (const [key, circle] of have.circles) if (!shown.has(key)) (g.removeLayer(circle), have.circles.delete(key));
    for (const key of popups.current.keys()) if (!keys.has(key)) popups.current.delete(key);
    host.current?.setAttribute('data-clusters', String(clusters.length));
    host.current?.setAttribute('data-zoom', String(Math.floor(zoom)));
    if (!fitted.current && points.length > 0 && !floorPlan) {
      fitted.current = true;
      // the fleet fills the map when it first shows (the clusters regroup at the zoom this lands on)
      m.fitBounds(L.latLngBounds(points).pad(0.1), { maxZoom: FIT_MAX_ZOOM });
    }
    // only when what it draws changed: a re-render of the card (its frame, a parent) keeps the markers
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [made, data, view, decimals, floorPlan, grouped, zoom, links]);

  return (
    <Box sx={{ position: 'relative', height: '100%', minHeight: 80 }}>
      <Box
        ref={host}
        data-testid="map"
        data-markers={markers.length}
        data-base-layer={ground}
        data-zoom={zoom}
        sx={{
          position: 'absolute',
          inset: 0,
          borderRadius: 1,
          overflow: 'hidden',
          bgcolor: floorPlan ? '#e8eef3' : SEA_COLOR,
          '&.leaflet-container': { bgcolor: floorPlan ? '#e8eef3' : SEA_COLOR },
        }}
      />
      {markers.length === 0 && track.length === 0 && (
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{
            position: 'absolute',
            left: 8,
            bottom: 6,
            zIndex: 500,
            bgcolor: 'background.paper',
            px: 0.5,
            borderRadius: 0.5,
          }}
        >
          {T.cardViews.mapNoMarkers}
        </Typography>
      )}
      {tilesFailed && (
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{
            position: 'absolute',
            right: 8,
            bottom: 6,
            zIndex: 500,
            bgcolor: 'background.paper',
            px: 0.5,
            borderRadius: 0.5,
          }}
        >
          {T.cardViews.mapOfflineTiles}
        </Typography>
      )}
    </Box>
  );
}
