/**
 * Writes `sea-lanes.json` next to this file from the marine network and the services' rotations
 * (see sea-lanes.ts):
 *
 *   npx tsx src/sim/geo/write-sea-lanes.ts
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { computeSeaLanes } from './sea-lanes';

const file = fileURLToPath(new URL('./sea-lanes.json', import.meta.url));
const lanes = computeSeaLanes();
fs.writeFileSync(file, await prettier.format(JSON.stringify(lanes), { parser: 'json' }));
console.log(`${lanes.lanes.length} lanes written to ${file}`);
