import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';

describe('quayside open', () => {
  it('prints the find link of an identifier, spaces kept for the resolver to drop', async () => {
    const result = await runCli(['open', 'MSCU', '123456-5', '--print']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe('quayside://find?q=MSCU%20123456-5');
  });

  it('refuses an empty identifier with a clear message', async () => {
    const result = await runCli(['open', ' - ']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/open needs a container, B\/L, booking or reference number/);
  });
});
