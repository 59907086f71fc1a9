// The load generator of bench/lib/load.ts when run apart (`client: 'apart'`), in its own
// process: the service under test keeps its event loop to itself, as it does with real clients.
// (autocannon on a worker thread takes itself for one of its own workers and answers raw
// histograms, hence a process.)
import autocannon from 'autocannon';

const { url, headers, connections, seconds } = JSON.parse(process.argv[2]);
const times = [];
const run = autocannon({ url, headers, connections, duration: seconds });
run.on('response', (_client, status, _bytes, ms) => {
  if (status >= 200 && status < 300) times.push(ms);
});
const result = await run;
process.send(
  {
    non2xx: result.non2xx,
    errors: result.errors,
    requests: { average: result.requests.average },
    latency: { p99: result.latency.p99, p50: result.latency.p50 },
    times,
  },
  () => process.disconnect(),
);
