import { useEffect, useState, type RefObject } from 'react';
import L from 'leaflet';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { FeatureCollection } from 'geojson';

/** The offline basemap: world-atlas country shapes, loaded once and shared by every map. */
let countries: Promise<FeatureCollection> | null = null;
function loadCountries(): Promise<FeatureCollection> {
  countries ??= import('world-atlas/countries-110m.json').then((module) => {
    const topology = module.default as unknown as Topology<{ countries: GeometryCollection }>;
    return feature(topology, topology.objects.countries) as FeatureCollection;
  });
  return countries;
}

/** Longitude offsets of the basemap copies drawn (one turn either side of the world). */
const WORLD_COPIES = [-360, 0, 360] as const;

/**
 * A Leaflet map in `container`, with the offline basemap and no tile server. Returns the map
 * once created; removes it when the component goes away.
 */
export function useLeafletMap(container: RefObject<HTMLDivElement | null>): L.Map | null {
  const [map, setMap] = useState<L.Map | null>(null);
  useEffect(() => {
    const element = container.current;
    if (!element) return undefined;
    const created = L.map(element, {
      worldCopyJump: false,
      minZoom: 1,
      maxZoom: 10,
      zoomSnap: 0.25,
      attributionControl: true,
      keyboard: true,
    });
    created.attributionControl.setPrefix(false);
    created.attributionControl.addAttribution('Countries: Natural Earth via world-atlas');
    created.setView([20, 0], 2);
    let alive = true;
    loadCountries().then(
      (shapes) => {
        if (!alive) return;
        // The world and its neighbouring copies: an unwrapped route may run past ±180°.
        for (const offset of WORLD_COPIES) {
          L.geoJSON(shapes, {
            interactive: false,
            style: { className: 'basemap-country', weight: 0.6 },
            coordsToLatLng: (coords) => L.latLng(coords[1]!, coords[0]! + offset),
          }).addTo(created);
        }
      },
      () => {
        // Without country shapes the route still draws on the plain background.
      },
    );
    setMap(created);
    return () => {
      alive = false;
      created.remove();
      setMap(null);
    };
  }, [container]);
  return map;
}
