/**
 * Deterministic fault injection for resilience tests: each request to a face draws its fate from a
 * stream seeded by the world seed and the face's name, so a seed replays the same failures.
 */
import { Rng } from './prng';

export interface ErrorRates {
  /** Share of requests answered with a 5xx status. */
  serverError?: number;
  /** Share of requests never answered (the client's timeout must fire). */
  timeout?: number;
  /** Share of requests answered 200 with a truncated, unparsable body. */
  malformed?: number;
}

export type Fate = 'ok' | 'server_error' | 'timeout' | 'malformed';

export class FaultInjector {
  private readonly rng: Rng;

  constructor(
    seed: number,
    label: string,
    private readonly rates: ErrorRates = {},
  ) {
    for (const [name, rate] of Object.entries(rates)) {
      if (rate !== undefined && !(rate >= 0 && rate <= 1))
        throw new RangeError(`error rate ${name} must be within 0..1`);
    }
    this.rng = new Rng(`${seed}:faults:${label}`);
  }

  next(): Fate {
    const x = this.rng.next();
    const { serverError = 0, timeout = 0, malformed = 0 } = this.rates;
    if (x < serverError) return 'server_error';
    if (x < serverError + timeout) return 'timeout';
    if (x < serverError + timeout + malformed) return 'malformed';
    return 'ok';
  }
}
