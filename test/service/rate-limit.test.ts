/** The in-process rolling window behind the per-account and per-address request limits. */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { RollingWindowLimiter } from '../../src/service/rate-limit';

const START = Date.UTC(2026, 0, 10, 12);

describe('RollingWindowLimiter', () => {
  it('allows the limit per key in a rolling minute and says when the next hit is allowed', () => {
    const clock = new ManualClock(START);
    const limiter = new RollingWindowLimiter(clock, 3);
    for (let i = 0; i < 3; i++) {
      expect(limiter.take('a')).toEqual({ allowed: true });
      clock.advance(10_000);
    }
    // Three hits at 0, 10 and 20 s: the first leaves the window at 60 s.
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect(limiter.take('b')).toEqual({ allowed: true });
    clock.advance(30_000);
    expect(limiter.take('a')).toEqual({ allowed: true });
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 10 });
  });

  it('keeps one entry per second whatever the limit, so a high limit costs no memory', () => {
    const clock = new ManualClock(START);
    const limiter = new RollingWindowLimiter(clock, 1e12);
    // 5,000 hits a second for two minutes.
    for (let second = 0; second < 120; second++) {
      for (let i = 0; i < 5_000; i++) limiter.take('busy');
      clock.advance(1_000);
    }
    const windows = (limiter as unknown as { windows: Map<string, { buckets: unknown[] }> })
      .windows;
    expect(windows.get('busy')!.buckets.length).toBeLessThanOrEqual(61);
  });

  it('forgets a key once its hits have left the window', () => {
    const clock = new ManualClock(START);
    const limiter = new RollingWindowLimiter(clock, 1);
    limiter.take('once');
    expect(limiter.take('once').allowed).toBe(false);
    clock.advance(60_001);
    expect(limiter.retryAfterSeconds('once')).toBe(0);
    expect(limiter.take('once').allowed).toBe(true);
  });
});
