/** The in-process rolling window behind the per-account and per-address request limits. */
import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { DEFAULT_CONFIG } from '../../src/service/context';
import {
  RequestLimits,
  RollingWindowLimiter,
  SharedWindowLimiter,
  type SharedWindows,
} from '../../src/service/rate-limit';

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

describe('SharedWindowLimiter', () => {
  /** The database's budgets, as far as the limiter sees them: counts hits, one at a time. */
  function countingWindows(limit: number) {
    let hits = 0;
    const statements: number[] = [];
    let release: (() => void) | undefined;
    const windows: SharedWindows = {
      async take(_key, _limit, _windowMs, nowMs, count) {
        statements.push(count);
        // The first statement is held until released, as a slow round trip would be.
        if (statements.length === 1) await new Promise<void>((r) => (release = r));
        const granted = Math.max(0, Math.min(count, limit - hits));
        hits += granted;
        return { granted, oldestMs: nowMs, used: hits };
      },
      prune: async () => undefined,
    };
    return { windows, statements, release: () => release?.(), hits: () => hits };
  }

  it('sends the takes that arrive during a statement together, never past the limit', async () => {
    const budget = countingWindows(5);
    const limiter = new SharedWindowLimiter(budget.windows, 'requests', new ManualClock(START), 5);
    const answers = Array.from({ length: 12 }, () => limiter.take('account'));
    await vi.waitFor(() => expect(budget.statements).toEqual([1]));
    budget.release();
    const results = await Promise.all(answers);
    // One statement for the first take, one for the eleven that waited behind it.
    expect(budget.statements).toEqual([1, 11]);
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect(results.slice(0, 5).every((r) => r.allowed)).toBe(true);
    expect(results.slice(5)).toEqual(
      Array.from({ length: 7 }, () => ({ allowed: false, retryAfterSeconds: 60 })),
    );
    expect(budget.hits()).toBe(5);
  });

  it('fails every take of a statement that failed, and takes the next ones anew', async () => {
    let fail = true;
    const windows: SharedWindows = {
      async take(_key, _limit, _windowMs, _nowMs, count) {
        if (fail) throw new Error('connection lost');
        return { granted: count, oldestMs: null, used: count };
      },
      prune: async () => undefined,
    };
    const limiter = new SharedWindowLimiter(windows, 'requests', new ManualClock(START), 5);
    await expect(limiter.take('account')).rejects.toThrow('connection lost');
    fail = false;
    expect(await limiter.take('account')).toEqual({ allowed: true });
  });

  it('lets a read go on beside its take only while the budget surely has room', async () => {
    const budget = countingWindows(30);
    const limits = new RequestLimits(
      new ManualClock(START),
      { ...DEFAULT_CONFIG, requestsPerMinute: 30 },
      budget.windows,
    );
    // Nothing known yet: the first read waits for its take.
    expect(limits.overlapRequestTake('account')).toBeUndefined();
    const first = limits.takeRequest('account');
    await vi.waitFor(() => expect(budget.statements).toEqual([1]));
    budget.release();
    await first;
    // 29 left, well over a tenth of the limit: the next reads need not wait.
    const overlapped = Array.from({ length: 20 }, () =>
      limits.overlapRequestTake('account'),
    ).filter((p) => p !== undefined);
    expect(overlapped.length).toBeGreaterThan(0);
    expect(await Promise.all(overlapped)).toEqual(overlapped.map(() => null));
    // Near the limit every read waits for its own take again.
    while (budget.hits() < 27) await limits.takeRequest('account');
    expect(limits.overlapRequestTake('account')).toBeUndefined();
  });

  /**
   * The database's budget as rate_limit_give_back_and_take keeps it: hits per second, a give-back
   * removed from its second before the take is counted.
   */
  function secondsWindows(limit: number) {
    const perSecond = new Map<number, number>();
    const statements: { atMs: number; count: number; giveBack?: number }[] = [];
    const total = () => [...perSecond.values()].reduce((sum, n) => sum + n, 0);
    const windows: SharedWindows = {
      async take(_key, _limit, _windowMs, nowMs, count, giveBack) {
        statements.push({ atMs: nowMs, count, giveBack: giveBack?.count });
        if (giveBack) {
          const second = giveBack.atMs - (giveBack.atMs % 1000);
          perSecond.set(second, (perSecond.get(second) ?? 0) - giveBack.count);
        }
        const granted = Math.max(0, Math.min(count, limit - total()));
        const second = nowMs - (nowMs % 1000);
        perSecond.set(second, (perSecond.get(second) ?? 0) + granted);
        return { granted, oldestMs: START, used: total() };
      },
      prune: async () => undefined,
    };
    return { windows, statements, perSecond, total };
  }

  /** `count` takes one after another, `stepMs` apart; how many were allowed. */
  async function takeSteadily(
    limiter: SharedWindowLimiter,
    clock: ManualClock,
    count: number,
    stepMs: number,
  ) {
    let allowed = 0;
    for (let i = 0; i < count; i++) {
      if ((await limiter.take('account')).allowed) allowed++;
      clock.advance(stepMs);
    }
    return allowed;
  }

  it('asks ahead for the rest of a busy second and gives back what it did not use', async () => {
    const clock = new ManualClock(START);
    const budget = secondsWindows(100_000);
    const limiter = new SharedWindowLimiter(budget.windows, 'requests', clock, 100_000);
    // A first second at 50 takes a second: nothing known of the pace, a statement each.
    expect(await takeSteadily(limiter, clock, 50, 20)).toBe(50);
    expect(budget.statements).toHaveLength(50);
    // The next second at the same pace: one statement asks for the whole second.
    expect(await takeSteadily(limiter, clock, 40, 20)).toBe(40);
    expect(budget.statements.slice(50)).toEqual([{ atMs: START + 1000, count: 51 }]);
    // Eleven fewer came than were asked for: the next second's statement gives them back, so
    // the database holds what was granted, counted in the second each was used.
    clock.advanceTo(START + 2000);
    expect(await takeSteadily(limiter, clock, 50, 20)).toBe(50);
    // ...and asks for the new second at the pace of the last one (40); when 50 come, once more
    // for the rest of the second at that pace (0.18 s left: 8).
    expect(budget.statements.slice(51)).toEqual([
      { atMs: START + 2000, count: 41, giveBack: 11 },
      { atMs: START + 2820, count: 9, giveBack: undefined },
    ]);
    expect(budget.perSecond.get(START)).toBe(50);
    expect(budget.perSecond.get(START + 1000)).toBe(40);
  });

  it('asks nothing ahead near the limit, so every place in the window goes to a request', async () => {
    const clock = new ManualClock(START);
    const limit = 3_000;
    const budget = secondsWindows(limit);
    const limiter = new SharedWindowLimiter(budget.windows, 'requests', clock, limit);
    // 1,000 takes a second, for four seconds: the window fills in the third.
    let allowed = 0;
    for (let second = 0; second < 4; second++) {
      clock.advanceTo(START + second * 1000);
      allowed += await takeSteadily(limiter, clock, 1000, 1);
    }
    expect(allowed).toBe(limit);
    expect(budget.total()).toBe(limit);
    // Asked ahead while a thousand places or more were left, never after.
    const aheadAt = budget.statements.filter((s) => s.count > 1);
    expect(aheadAt.length).toBeGreaterThan(0);
    expect(Math.max(...aheadAt.map((s) => s.atMs))).toBeLessThan(START + 2000);
  });

  it('never gives back hits whose statement failed', async () => {
    const clock = new ManualClock(START);
    const budget = secondsWindows(100_000);
    let failNext = false;
    const windows: SharedWindows = {
      take(...args) {
        if (failNext) return Promise.reject(new Error('connection lost'));
        return budget.windows.take(...args);
      },
      prune: async () => undefined,
    };
    const limiter = new SharedWindowLimiter(windows, 'requests', clock, 100_000);
    await takeSteadily(limiter, clock, 50, 20);
    await limiter.take('account'); // second 1: 50 taken ahead
    clock.advanceTo(START + 2000);
    failNext = true;
    await expect(limiter.take('account')).rejects.toThrow('connection lost');
    failNext = false;
    await limiter.take('account');
    // The failed statement may have given the 50 back already: the next one does not again.
    expect(budget.statements.at(-1)?.giveBack).toBeUndefined();
  });
});
