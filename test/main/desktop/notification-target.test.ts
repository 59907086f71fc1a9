import { describe, expect, it } from 'vitest';
import { notificationRoute } from '../../../src/main/desktop/notification-target';

describe('notification click', () => {
  it('opens the container the alert is about', () => {
    expect(notificationRoute('c_01HV4Z')).toBe('/containers/c_01HV4Z');
  });

  it('opens the alerts list for alerts without a container, or an id that is not one', () => {
    expect(notificationRoute(null)).toBe('/alerts');
    expect(notificationRoute(undefined)).toBe('/alerts');
    expect(notificationRoute('../settings')).toBe('/alerts');
    expect(notificationRoute('x'.repeat(129))).toBe('/alerts');
  });
});
