import { describe, expect, it } from 'vitest';
import { includedTypes, parseInclude } from '../../src/service/jsonapi/include';

describe('include paths', () => {
  it('names every type a path can bring in, each step of it', () => {
    const paths = parseInclude(
      'shipment.line_tracking_stopped_by_user, pod_terminal,transport_events.location',
      'container',
    );
    expect([...includedTypes(paths, 'container')].sort()).toEqual([
      'metro_area',
      'port',
      'shipment',
      'terminal',
      'transport_event',
      'user',
    ]);
    expect(includedTypes([], 'container').size).toBe(0);
  });

  it('refuses a step that names no relationship, naming the parameter', () => {
    for (const raw of ['shipment.vessel', '__proto__', 'shipment.toString']) {
      expect(() => parseInclude(raw, 'container')).toThrow(/can be included on container/);
    }
  });
});
