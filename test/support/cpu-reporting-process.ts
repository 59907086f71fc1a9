/**
 * A process that reports its CPU time as the document reader does (reportCpuTime, on
 * CPU_REPORT_FD), says 'started' on stdout, then keeps its main thread busy without ever
 * yielding (`busy`) or sleeps (`idle`).
 */
import { reportCpuTime } from '../../src/service/documents/process-cpu';

reportCpuTime();
process.stdout.write('started\n');
if (process.argv[2] === 'busy') for (;;) Math.sqrt(Math.random());
else setInterval(() => undefined, 60_000);
