/**
 * The load generator of bench/lib/load.ts when run apart (`client: 'apart'`), in a process of
 * its own: the service under test keeps its event loop to itself, as it does with real clients.
 * (autocannon on a worker thread takes itself for one of its own workers and answers raw
 * histograms, hence a process.)
 */
import { measureHere, type LoadOptions } from './load';

const measured = await measureHere(JSON.parse(process.argv[2]!) as LoadOptions);
process.send!(measured, () => process.disconnect());
