/**
 * Where the box is: the kind of place (terminal, rail, ramp, customer) from its facts.
 */
import type { DeadlinePlace } from './last-free-day';

export interface LocationFacts {
  status: string;
  terminalName: string | null;
  podName: string | null;
  /** The inland destination (the rail ramp for a rail move). */
  destinationName: string | null;
  railDepartedAt: string | null;
  railUnloadedAt: string | null;
}

export interface ContainerLocation {
  /** `terminal` at the port, `rail` travelling to the ramp, `ramp` at the ramp. */
  kind: 'terminal' | 'rail' | 'ramp';
  name: string | null;
}

/** Which kind of place the box is at, from its rail moves: the port, on rail, or at the ramp. */
export function placeKind(
  f: Pick<LocationFacts, 'status' | 'railDepartedAt' | 'railUnloadedAt'>,
): DeadlinePlace {
  if (f.railUnloadedAt) return 'ramp';
  if (f.status === 'on_rail' || f.railDepartedAt) return 'rail';
  return 'terminal';
}

/** Where the box sits: the port terminal until it goes on rail, then the destination ramp. */
export function containerLocation(f: LocationFacts): ContainerLocation {
  const kind = placeKind(f);
  if (kind !== 'terminal' && f.destinationName) return { kind, name: f.destinationName };
  return { kind: 'terminal', name: f.terminalName ?? f.podName };
}
