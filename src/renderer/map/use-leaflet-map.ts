import { useEffect, useState, type RefObject } from 'react';
import L from 'leaflet';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { FeatureCollection } from 'geojson';

type Detail = 'coarse' | 'fine';

/**
 * The offline basemap: world-atlas country shapes, loaded once and shared by every map. The
 * coarse set (1:110m) draws the world; the fine one (1:50m, loaded on first zoom-in) keeps
 * coastlines true up close.
 */
const countries = new Map<Detail, Promise<FeatureCollection>>();
function loadCountries(detail: Detail): Promise<FeatureCollection> {
  let loading = countries.get(detail);
  if (!loading) {
    const file =
      detail === 'coarse'
        ? import('world-atlas/countries-110m.json')
        : import('world-atlas/countries-50m.json');
    loading = file.then((module) => {
      const topology = module.default as unknown as Topology<{ countries: GeometryCollection }>;
      return feature(topology, topology.objects.countries) as FeatureCollection;
    });
    countries.set(detail, loading);
  }
  return loading;
}

/** From this zoom on, the fine shapes are drawn. */
const FINE_FROM_ZOOM = 4;

/** Longitude offsets of the basemap copies drawn (one turn either side of the world). */
const WORLD_COPIES = [-360, 0, 360] as const;

/**
 * How far the view may go: the drawn copies and the latitudes the projection shows, so no edge
 * of the basemap (a grey band past the last copy or the poles) is ever in view.
 */
const VIEW_LIMITS = L.latLngBounds([-85, -540], [85, 540]);

/** How long the "how to zoom" hint stays after a wheel turn the map let the page have. */
const WHEEL_HINT_MS = 1_500;

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
      maxBounds: VIEW_LIMITS,
      maxBoundsViscosity: 1,
      // The wheel scrolls the page unless the map has focus or a modifier is held (below).
      scrollWheelZoom: false,
    });
    created.attributionControl.setPrefix(false);
    created.attributionControl.addAttribution('Countries: Natural Earth via world-atlas');
    created.setView([20, 0], 2);
    let alive = true;

    // The basemap: the coarse shapes at once, the fine ones from FINE_FROM_ZOOM on.
    const layers = new Map<Detail, L.LayerGroup>();
    const basemap = created.createPane('basemap');
    basemap.style.zIndex = '250';
    const show = (detail: Detail) => {
      for (const [other, layer] of layers) if (other !== detail) layer.remove();
      const shown = layers.get(detail);
      if (shown) return void shown.addTo(created);
      loadCountries(detail).then(
        (shapes) => {
          if (!alive || layers.has(detail)) return;
          // The world and its neighbouring copies: an unwrapped route may run past ±180°.
          const group = L.layerGroup(
            WORLD_COPIES.map((offset) =>
              L.geoJSON(shapes, {
                pane: 'basemap',
                interactive: false,
                style: { className: 'basemap-country', weight: 0.6 },
                coordsToLatLng: (coords) => L.latLng(coords[1]!, coords[0]! + offset),
              }),
            ),
          );
          layers.set(detail, group);
          if (wanted() === detail) group.addTo(created);
        },
        () => {
          // Without country shapes the route still draws on the plain background.
        },
      );
    };
    const wanted = (): Detail => (created.getZoom() >= FINE_FROM_ZOOM ? 'fine' : 'coarse');
    show('coarse');
    element.dataset.zoom = String(created.getZoom());
    created.on('zoomend', () => {
      show(wanted());
      element.dataset.zoom = String(created.getZoom());
    });

    // The wheel: a page with a map in it scrolls like any page. The map zooms on the wheel once
    // it has focus (a click or Tab) or while Ctrl/⌘ is held, and says so when it let one pass.
    const hint = L.DomUtil.create('div', 'route-map__hint', element);
    hint.setAttribute('aria-hidden', 'true');
    hint.textContent = 'Click the map or hold Ctrl to zoom with the wheel';
    let hintTimer: number | undefined;
    const onWheel = (event: WheelEvent) => {
      const zooms = document.activeElement === element || event.ctrlKey || event.metaKey;
      if (zooms) created.scrollWheelZoom.enable();
      else {
        created.scrollWheelZoom.disable();
        hint.classList.add('route-map__hint--shown');
        window.clearTimeout(hintTimer);
        hintTimer = window.setTimeout(
          () => hint.classList.remove('route-map__hint--shown'),
          WHEEL_HINT_MS,
        );
      }
    };
    // Capture: decided before Leaflet's own wheel handler on the same element sees the turn.
    element.addEventListener('wheel', onWheel, { capture: true, passive: true });
    setMap(created);
    return () => {
      alive = false;
      window.clearTimeout(hintTimer);
      element.removeEventListener('wheel', onWheel, { capture: true });
      created.remove();
      setMap(null);
    };
  }, [container]);
  return map;
}
