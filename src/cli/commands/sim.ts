import { parseArgs } from 'node:util';
import { listTrackableNumbers } from '../../sim';
import { DEFAULT_SEED } from '../../embedded/service-with-world';
import type { CommandCode } from '../command';

/** Prints the numbers the simulated world of a seed can track, one per line with its story. */
export const simListCommand: CommandCode = {
  async run(args) {
    const { values } = parseArgs({ args, options: { seed: { type: 'string' } }, strict: true });
    const seed = values.seed === undefined ? DEFAULT_SEED : Number(values.seed);
    if (!Number.isInteger(seed) || seed < 0) {
      console.error(`Invalid --seed ${values.seed}`);
      return 1;
    }
    const rows = listTrackableNumbers(seed);
    const width = Math.max(...rows.map((r) => r.request_number.length), 6);
    console.log(`${'NUMBER'.padEnd(width)}  SCAC  TYPE            STORY`);
    for (const r of rows) {
      console.log(
        `${r.request_number.padEnd(width)}  ${r.scac.padEnd(4)}  ${r.request_type.padEnd(14)}  ${r.story}`,
      );
    }
    return 0;
  },
};
