import { describe, expect, it } from 'vitest';
import { findRouteOfArgs, findRouteOfLink } from '../../../src/main/desktop/find-link-target';
import { findLink } from '../../../src/shared/find-link';

describe('find links to renderer routes', () => {
  it('turns a quayside://find link into the find route, its identifier encoded', () => {
    expect(findRouteOfLink('quayside://find?q=MSCU%20123456-5')).toBe('/find/MSCU%20123456-5');
    expect(findRouteOfLink(findLink('PO/../settings'))).toBe('/find/PO%2F..%2Fsettings');
    expect(findRouteOfLink(findLink(' MEDU5550001 '))).toBe('/find/MEDU5550001');
  });

  it('ignores other links and empty or oversized identifiers', () => {
    expect(findRouteOfLink('https://example.com/find?q=X')).toBeNull();
    expect(findRouteOfLink('quayside://settings?q=X')).toBeNull();
    expect(findRouteOfLink('quayside://find?q=')).toBeNull();
    expect(findRouteOfLink(`quayside://find?q=${'A'.repeat(101)}`)).toBeNull();
  });

  it("finds the link among a second launch's arguments", () => {
    const argv = ['/opt/Quayside/quayside', '--no-sandbox', 'quayside://find?q=TGHU2222220'];
    expect(findRouteOfArgs(argv)).toBe('/find/TGHU2222220');
    expect(findRouteOfArgs(['/opt/Quayside/quayside'])).toBeNull();
  });
});
