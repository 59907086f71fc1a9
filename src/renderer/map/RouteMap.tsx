import { useEffect, useMemo, useRef } from 'react';
import L from 'leaflet';
import type { RouteFeature, RouteFeatureCollection } from '../../shared/api/resources';
import type { InlandFeatureCollection } from '../../shared/api/route-features';
import { formatDateTime } from '../lib/format';
import { largestStep, placeRoute, type LatLng, type LngLat } from './geometry';
import { useLeafletMap } from './use-leaflet-map';

/** Route feature properties as the spec lists them (the shared schema keeps only feature_type). */
type Props = Record<string, unknown> & {
  feature_type:
    | RouteFeature['properties']['feature_type']
    | InlandFeatureCollection['features'][number]['properties']['feature_type'];
};

/** The ocean features, then the rail leg and ramp a box moving on by rail has (`inland`). */
const allFeatures = (geojson: RouteFeatureCollection) => [
  ...geojson.features,
  ...(geojson.inland?.features ?? []),
];

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export interface PortSummary {
  label: string;
  name: string;
  timeZone: string | null;
  arrival: string | null;
  arrivalActual: boolean;
  departure: string | null;
  departureActual: boolean;
}

export interface VesselSummary {
  name: string;
  heading: number | null;
  speed: number | null;
  at: string | null;
  nextPort: string | null;
  nextEta: string | null;
  nextZone: string | null;
}

export function summarizeRoute(geojson: RouteFeatureCollection): {
  ports: PortSummary[];
  vessel: VesselSummary | null;
} {
  const ports: PortSummary[] = [];
  let vessel: VesselSummary | null = null;
  let ramp: PortSummary | null = null;
  for (const f of allFeatures(geojson)) {
    const p = f.properties as Props;
    if (p.feature_type === 'ramp') {
      const ata = str(p.inbound_ata_at);
      ramp = {
        label: 'Ramp',
        name: rampName(p),
        timeZone: str(p.time_zone),
        arrival: ata ?? str(p.inbound_eta_at),
        arrivalActual: ata !== null,
        departure: null,
        departureActual: false,
      };
    } else if (p.feature_type === 'port') {
      const ata = str(p.inbound_ata_at);
      const atd = str(p.outbound_atd_at);
      ports.push({
        label: str(p.label) ?? 'Port',
        name: str(p.name) ?? 'Unknown port',
        timeZone: str(p.time_zone),
        arrival: ata ?? str(p.inbound_eta_at),
        arrivalActual: ata !== null,
        departure: atd ?? str(p.outbound_etd_at),
        departureActual: atd !== null,
      });
    } else if (p.feature_type === 'current_vessel') {
      vessel = {
        name: str(p.vessel_name) ?? 'Vessel',
        heading: num(p.vessel_location_heading),
        speed: num(p.vessel_location_speed),
        at: str(p.vessel_location_timestamp),
        nextPort: str(p.arrival_port_name),
        nextEta: str(p.arrival_port_eta),
        nextZone: str(p.arrival_port_time_zone),
      };
    }
  }
  ports.sort((a, b) => portOrder(a.label) - portOrder(b.label));
  // The ramp is the last stop: the box moves on from the port of discharge by rail.
  if (ramp) ports.push(ramp);
  return { ports, vessel };
}

/** "BNSF Logistics Park Chicago (Chicago)", or the city alone when the ramp is not named. */
function rampName(p: Props): string {
  const name = str(p.name) ?? 'Ramp';
  const city = str(p.city);
  return city && city !== name ? `${name} (${city})` : name;
}

const portOrder = (label: string) =>
  label === 'POL' ? 0 : label === 'POD' ? 1000 : Number(label.replace(/\D/g, '')) || 500;

/** Marks an SVG path Leaflet drew so tests and assistive tech can find it. */
function tagPath(layer: L.Path, testId: string, name: string, latLngs: readonly LatLng[]) {
  const element = layer.getElement();
  if (!element) return;
  element.setAttribute('data-testid', testId);
  element.setAttribute('role', 'img');
  element.setAttribute('aria-label', name);
  // Where the line runs on the unwrapped map (longitudes may pass ±180): checkable without pixels.
  const lngs = latLngs.map(([, lng]) => lng);
  element.setAttribute('data-lng-from', String(lngs[0]));
  element.setAttribute('data-lng-to', String(lngs[lngs.length - 1]));
  element.setAttribute('data-largest-step', String(largestStep(latLngs)));
}

/** How a route line is drawn, keyed on its GeoJSON properties. */
type LineKind = 'sailed' | 'sailed-estimated' | 'estimated' | 'rail';

const LINE_STYLES: Record<
  LineKind,
  { className: string; weight: number; dashArray?: string; testId: string; name: string }
> = {
  sailed: { className: 'route-past', weight: 3, testId: 'map-past-path', name: 'Path sailed' },
  // Sailed, but no position was recorded there: drawn along the sea lane.
  'sailed-estimated': {
    className: 'route-past route-past--estimated',
    weight: 3,
    dashArray: '1 6',
    testId: 'map-past-estimated',
    name: 'Path sailed, no positions recorded (along the sea lane)',
  },
  estimated: {
    className: 'route-estimated',
    weight: 2,
    dashArray: '6 6',
    testId: 'map-estimated-leg',
    name: 'Estimated route',
  },
  // No rail positions are recorded: the line joins the places the rail events name.
  rail: {
    className: 'route-rail',
    weight: 3,
    dashArray: '8 4 2 4',
    testId: 'map-rail-leg',
    name: 'Rail to the ramp (line estimated, no positions recorded)',
  },
};

function lineKind(p: Props): LineKind {
  if (p.feature_type === 'rail_leg') return 'rail';
  if (p.feature_type === 'past_vessel_locations') {
    return p.estimated === true ? 'sailed-estimated' : 'sailed';
  }
  return 'estimated';
}

/** Route order: by leg, and within a leg what was sailed before what lies ahead. */
const lineOrder = (p: Props) =>
  (num(p.ports_sequence) ?? 0) * 10 +
  (p.feature_type === 'past_vessel_locations' ? 0 : p.feature_type === 'rail_leg' ? 5 : 1);

/**
 * The container's route on an offline basemap: ports labelled POL / TS1 / POD, the path sailed
 * so far solid (dotted where no position was recorded), estimated legs dashed, the vessel
 * turned to its heading, and for a box moving on by rail the rail leg (dash-dot) to the ramp,
 * the last stop. The route is drawn on one unwrapped copy of the world starting at the
 * loading port, so a trans-Pacific line runs across the antimeridian in one piece.
 */
export function RouteMap({ geojson }: { geojson: RouteFeatureCollection }) {
  const container = useRef<HTMLDivElement>(null);
  const map = useLeafletMap(container);
  const summary = useMemo(() => summarizeRoute(geojson), [geojson]);
  /** The view is fitted to the first route drawn; the map is keyed by its container. */
  const fitted = useRef(false);

  useEffect(() => {
    if (!map) return undefined;
    const group = L.featureGroup().addTo(map);
    const lines: { coordinates: LngLat[]; data: Props }[] = [];
    const points: { coordinates: LngLat; data: Props }[] = [];
    let start: LngLat | null = null;
    for (const f of allFeatures(geojson)) {
      const p = f.properties as Props;
      if (f.geometry.type === 'LineString') {
        lines.push({ coordinates: f.geometry.coordinates as unknown as LngLat[], data: p });
      } else {
        const coordinates = f.geometry.coordinates as unknown as LngLat;
        points.push({ coordinates, data: p });
        if (p.feature_type === 'port' && str(p.label) === 'POL') start = coordinates;
      }
    }
    lines.sort((a, b) => lineOrder(a.data) - lineOrder(b.data));
    const placed = placeRoute(start, lines, points);

    for (const { latLngs, data } of placed.lines) {
      if (latLngs.length < 2) continue;
      const style = LINE_STYLES[lineKind(data)];
      const line = L.polyline(latLngs, {
        className: style.className,
        weight: style.weight,
        dashArray: style.dashArray,
        interactive: false,
      }).addTo(group);
      tagPath(line, style.testId, style.name, latLngs);
      if (data.feature_type === 'rail_leg') {
        line.getElement()?.setAttribute('data-status', str(data.status) ?? '');
      }
    }
    for (const { latLng, data: p } of placed.points) {
      if (p.feature_type === 'port') {
        const label = str(p.label) ?? 'Port';
        const name = str(p.name) ?? '';
        L.marker(latLng, {
          title: `${label} ${name}`,
          keyboard: true,
          icon: L.divIcon({
            className: 'port-marker',
            iconSize: undefined,
            html: `<span data-testid="map-port" data-lng="${latLng[1]}" role="img" aria-label="${escapeHtml(`${label} ${name}`)}" class="port-marker__label port-marker__label--${escapeHtml(label.toLowerCase())}">${escapeHtml(label)}</span>`,
          }),
        })
          .bindTooltip(escapeHtml(`${label}: ${name}`), { direction: 'top', offset: [0, -10] })
          .addTo(group);
      } else if (p.feature_type === 'ramp') {
        const name = `Ramp ${rampName(p)}`;
        L.marker(latLng, {
          title: name,
          keyboard: true,
          icon: L.divIcon({
            className: 'port-marker',
            iconSize: undefined,
            html: `<span data-testid="map-ramp" data-lng="${latLng[1]}" role="img" aria-label="${escapeHtml(name)}" class="port-marker__label port-marker__label--ramp">Ramp</span>`,
          }),
        })
          .bindTooltip(escapeHtml(name), { direction: 'top', offset: [0, -10] })
          .addTo(group);
      } else if (p.feature_type === 'current_vessel') {
        const heading = num(p.vessel_location_heading) ?? 0;
        const speed = num(p.vessel_location_speed);
        const at = str(p.vessel_location_timestamp);
        const name = str(p.vessel_name) ?? 'Vessel';
        const description = [
          name,
          `heading ${Math.round(heading)}°`,
          speed !== null ? `${speed.toFixed(1)} kn` : null,
          at ? `at ${formatDateTime(at, 'utc')}` : null,
        ]
          .filter(Boolean)
          .join(', ');
        L.marker(latLng, {
          title: description,
          keyboard: true,
          zIndexOffset: 1000,
          icon: L.divIcon({
            className: 'vessel-marker',
            iconSize: [28, 28],
            iconAnchor: [14, 14],
            html: `<span data-testid="map-vessel" data-lng="${latLng[1]}" role="img" aria-label="${escapeHtml(description)}" class="vessel-marker__icon" style="transform: rotate(${heading}deg)"><svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true"><path d="M12 2 L19 21 L12 17 L5 21 Z"/></svg></span>`,
          }),
        })
          .bindTooltip(escapeHtml(description), { direction: 'right', offset: [14, 0] })
          .addTo(group);
      }
    }
    const bounds = group.getBounds();
    if (bounds.isValid()) {
      // Once: the route is drawn again after every sync that changed anything (a new vessel
      // position), and fitting each time threw away the zoom and pan the dispatcher had chosen.
      if (!fitted.current) map.fitBounds(bounds, { padding: [32, 32], maxZoom: 6 });
      fitted.current = true;
      // The fitted route's extent on the unwrapped map, for checks that do not read pixels.
      container.current?.setAttribute('data-route-west', String(bounds.getWest()));
      container.current?.setAttribute('data-route-east', String(bounds.getEast()));
    }
    return () => {
      group.remove();
    };
  }, [map, geojson]);

  return (
    <figure className="route-map">
      <div
        ref={container}
        className="route-map__canvas"
        data-testid="route-map"
        role="region"
        aria-label="Route map"
      />
      <figcaption className="route-map__legend">
        <span className="legend legend--past">Sailed</span>
        {geojson.features.some((f) => (f.properties as Props).estimated === true) ? (
          <span className="legend legend--past-estimated">Sailed, no positions recorded</span>
        ) : null}
        <span className="legend legend--estimated">Estimated</span>
        {geojson.inland?.features.some((f) => f.properties.feature_type === 'rail_leg') ? (
          <span className="legend legend--rail">Rail (line estimated)</span>
        ) : null}
        {summary.vessel ? (
          <span>
            {summary.vessel.name}
            {summary.vessel.speed !== null ? ` · ${summary.vessel.speed.toFixed(1)} kn` : ''}
            {summary.vessel.heading !== null
              ? ` · heading ${Math.round(summary.vessel.heading)}°`
              : ''}
            {summary.vessel.at ? ` · position ${formatDateTime(summary.vessel.at, 'utc')}` : ''}
            {summary.vessel.nextPort
              ? ` · next ${summary.vessel.nextPort}${summary.vessel.nextEta ? ` ETA ${formatDateTime(summary.vessel.nextEta, summary.vessel.nextZone)}` : ''}`
              : ''}
          </span>
        ) : null}
      </figcaption>
      {summary.ports.length ? (
        <ol className="route-ports" aria-label="Stops on the route">
          {summary.ports.map((port) => (
            <li key={`${port.label}-${port.name}`}>
              <strong>{port.label}</strong> {port.name}
              {port.arrival ? (
                <span className="muted">
                  {' '}
                  · {port.arrivalActual ? 'arrived' : 'ETA'}{' '}
                  {formatDateTime(port.arrival, port.timeZone)}
                </span>
              ) : null}
              {port.departure ? (
                <span className="muted">
                  {' '}
                  · {port.departureActual ? 'departed' : 'ETD'}{' '}
                  {formatDateTime(port.departure, port.timeZone)}
                </span>
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
    </figure>
  );
}
