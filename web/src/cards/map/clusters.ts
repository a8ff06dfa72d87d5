// Clustering of a map card's markers (issue 28: a 300-truck fleet is one green smear at country zoom; issue 38: so
// are 25 vans in one depot). Supercluster
// groups markers closer than CLUSTER_RADIUS_PX on screen at each zoom; from CLUSTER_MAX_ZOOM in every marker stands
// alone. Pure (no Leaflet), so the grouping is tested without a map.
import Supercluster, { type ClusterProperties } from 'supercluster';
import type { MapMarker } from './markers.js';

/**
 * Any map with two markers or more clusters the ones that would touch (as Leaflet.markercluster does): 25 vans in one
 * depot are one badge saying 25, not 25 circles drawn over each other (issue 38).
 */
export const CLUSTER_MARKERS_FROM = 2;
/** Markers closer than this on screen (px at the map's zoom) join one cluster. */
export const CLUSTER_RADIUS_PX = 40;
/** From this zoom (streets) every marker is drawn on its own. */
export const CLUSTER_MAX_ZOOM = 15;

export type MapItem =
  | { kind: 'marker'; marker: MapMarker; index: number }
  | { kind: 'cluster'; id: number; lat: number; lon: number; count: number; online: number; offline: number };

interface PointProps {
  index: number;
  online: number;
  offline: number;
}

export interface MarkerClusters {
  /** what the map draws at `zoom` (whole world: a few hundred markers need no viewport culling) */
  at(zoom: number): MapItem[];
  /** the zoom at which a cluster breaks apart (a click zooms there) */
  expansionZoom(clusterId: number): number;
}

export function clusterMarkers(markers: readonly MapMarker[]): MarkerClusters {
  const index = new Supercluster<PointProps, PointProps>({
    radius: CLUSTER_RADIUS_PX,
    maxZoom: CLUSTER_MAX_ZOOM - 1,
    // tiles of 256 px, as Leaflet draws them
    extent: 256,
    map: (p) => ({ index: p.index, online: p.online, offline: p.offline }),
    reduce: (acc, p) => {
      acc.online += p.online;
      acc.offline += p.offline;
    },
  });
  index.load(
    markers.map((m, i) => ({
      type: 'Feature' as const,
      geometry: { type: 'Point' as const, coordinates: [m.lon, m.lat] },
      properties: { index: i, online: m.online === true ? 1 : 0, offline: m.online === false ? 1 : 0 },
    })),
  );
  return {
    at(zoom) {
      const z = Math.max(0, Math.floor(zoom));
      return index.getClusters([-180, -85, 180, 85], z).map((f): MapItem => {
        const [lon, lat] = f.geometry.coordinates as [number, number];
        const p = f.properties as Partial<ClusterProperties> & PointProps;
        if (p.cluster)
          return {
            kind: 'cluster',
            id: p.cluster_id!,
            lat,
            lon,
            count: p.point_count!,
            online: p.online,
            offline: p.offline,
          };
        return { kind: 'marker', marker: markers[p.index]!, index: p.index };
      });
    },
    expansionZoom: (id) => Math.min(CLUSTER_MAX_ZOOM, index.getClusterExpansionZoom(id)),
  };
}

/** A cluster's size on the map: grows with the log of its count, 14 to 26 px in radius. */
export const clusterRadius = (count: number) => Math.min(26, 12 + Math.round(Math.log10(Math.max(2, count)) * 6));
