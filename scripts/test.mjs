// `npm test`: installs what is missing, then runs every check and ends non-zero on any failure:
// build, Vitest (unit + integration), then Playwright (e2e) with the source checks (typecheck,
// lint, format, electronegativity) beside it at low priority.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import { ensureBuild, ensureDependencies, root } from './lib/setup.mjs';

await ensureDependencies();

function ensureChromium() {
  const found = spawnSync('sh', ['-c', 'command -v chromium || command -v chromium-browser']);
  if (found.status === 0) return;
  if (process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v apt-get']).status === 0) {
    console.error("Installing Debian's chromium for the end-to-end tests…");
    spawnSync(
      'sh',
      [
        '-c',
        'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium',
      ],
      {
        stdio: 'inherit',
      },
    );
    return;
  }
  console.error(
    'Chromium is missing: install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.',
  );
}
ensureChromium();

const bin = (name) => join(root, 'node_modules', '.bin', name);
const tmp = join(root, '.tmp');
mkdirSync(tmp, { recursive: true });
const vitestReport = join(tmp, 'vitest.json');
const playwrightReport = join(tmp, 'playwright.json');
rmSync(vitestReport, { force: true });
rmSync(playwrightReport, { force: true });

/**
 * Checks that read the sources only, each output kept whole. They run beside Playwright, whose
 * tests spend much of their time waiting on the app's clock or a sync (about 1.3 of 2 cores busy
 * on their own), at a lower priority so that they take the idle time and not the tests' share.
 */
const checks = [
  ['typecheck (node)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.node.json']],
  ['typecheck (web)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.web.json']],
  ['lint', bin('eslint'), ['.', '--max-warnings', '0']],
  ['format', bin('prettier'), ['--check', '.', '--log-level', 'warn']],
  ['electronegativity', process.execPath, [join(root, 'scripts', 'electronegativity.mjs')]],
];
/** Steps that use the whole machine: one after the other; the checks beside the last. */
const steps = [
  ['build', null, []],
  [
    'vitest',
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`],
  ],
];
const e2e = ['playwright', bin('playwright'), ['test', '--reporter=list,json']];
const CHECKS_AT_ONCE = 2;
const CHECKS_NICENESS = 10;

const results = [];

/**
 * CPU seconds used so far by this script's finished children and the processes they reaped
 * (Linux: /proc/self/stat's cutime and cstime, in clock ticks of 1/100 s), so the summary says
 * how much of the machine each step kept busy; null where /proc is not there.
 */
function childCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}
const suiteStarted = Date.now();
const cpuAtStart = childCpuSeconds();

function runCheck([name, command, args]) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      if (child.pid !== undefined) os.setPriority(child.pid, CHECKS_NICENESS);
    } catch {
      // Not permitted here: the check runs at normal priority, only slower for the tests.
    }
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    let finished = false;
    const finish = (ok) => {
      if (finished) return;
      finished = true;
      console.log(`\n=== ${name}`);
      if (output) process.stdout.write(output);
      results.push({ name, ok, seconds: (Date.now() - started) / 1000 });
      resolve();
    };
    child.on('error', (error) => {
      output += `${error.message}\n`;
      finish(false);
    });
    child.on('close', (code) => finish(code === 0));
  });
}

function runChecks() {
  const queue = [...checks];
  return Promise.all(
    Array.from({ length: CHECKS_AT_ONCE }, async () => {
      while (queue.length > 0) await runCheck(queue.shift());
    }),
  );
}

/** Playwright with its report, as a promise of its result, so the checks can run meanwhile. */
function runPlaywright([name, command, args]) {
  console.log(`\n=== ${name}`);
  const started = Date.now();
  return new Promise((resolve) => {
    const env = { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport };
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env });
    const finish = (ok) => resolve({ name, ok, seconds: (Date.now() - started) / 1000 });
    child.on('error', () => finish(false));
    child.on('close', (code) => finish(code === 0));
  });
}

function cpuSince(before) {
  const now = childCpuSeconds();
  return before === null || now === null ? null : now - before;
}

for (const [name, command, args] of steps) {
  console.log(`\n=== ${name}`);
  const started = Date.now();
  const cpuBefore = childCpuSeconds();
  let status;
  if (command === null) {
    ensureBuild({ force: true });
    status = 0;
  } else {
    status = spawnSync(command, args, { cwd: root, stdio: 'inherit' }).status ?? 1;
  }
  results.push({
    name,
    ok: status === 0,
    seconds: (Date.now() - started) / 1000,
    cpu: cpuSince(cpuBefore),
  });
}
{
  const cpuBefore = childCpuSeconds();
  const [e2eResult] = await Promise.all([runPlaywright(e2e), runChecks()]);
  results.push({ ...e2eResult, cpu: cpuSince(cpuBefore), cpuNote: ' with the checks beside it' });
}

function counts() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (existsSync(vitestReport)) {
    const report = JSON.parse(readFileSync(vitestReport, 'utf8'));
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  }
  if (existsSync(playwrightReport)) {
    const stats = JSON.parse(readFileSync(playwrightReport, 'utf8')).stats ?? {};
    passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
    failed += stats.unexpected ?? 0;
    skipped += stats.skipped ?? 0;
  }
  return { passed, failed, skipped };
}

// The failing tests by name with the first line of their error, so the end of a long log says
// what broke without scrolling back through it.
function failures() {
  const lines = [];
  if (existsSync(vitestReport)) {
    const report = JSON.parse(readFileSync(vitestReport, 'utf8'));
    for (const file of report.testResults ?? []) {
      const relative = String(file.name ?? '').replace(`${root}/`, '');
      const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
      if (failedTests.length === 0 && file.status === 'failed') {
        lines.push(`${relative}: ${firstLine(file.message)}`);
      }
      for (const test of failedTests) {
        lines.push(`${relative} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
      }
    }
  }
  if (existsSync(playwrightReport)) {
    const visit = (suite, file) => {
      for (const spec of suite.specs ?? []) {
        for (const test of spec.tests ?? []) {
          if (test.status !== 'unexpected') continue;
          const error = test.results?.at(-1)?.error?.message;
          lines.push(`${spec.file ?? file} › ${spec.title}: ${firstLine(error)}`);
        }
      }
      for (const child of suite.suites ?? []) visit(child, suite.file ?? file);
    };
    for (const suite of JSON.parse(readFileSync(playwrightReport, 'utf8')).suites ?? []) {
      visit(suite, suite.file);
    }
  }
  return lines;
}

function firstLine(text) {
  // Strip colour codes; keep one line short enough to read in a log tail.
  const plain = String(text ?? 'no message')
    .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
    .trim();
  return plain.split('\n')[0].slice(0, 300);
}

console.log('\n=== summary');
for (const result of results) {
  const cpu = result.cpu == null ? '' : `, CPU ${result.cpu.toFixed(0)} s${result.cpuNote ?? ''}`;
  console.log(
    `${result.ok ? 'ok  ' : 'FAIL'} ${result.name} (${result.seconds.toFixed(1)} s${cpu})`,
  );
}
// Wall time against CPU time: how close the suite is to what two cores can do at all.
const wall = (Date.now() - suiteStarted) / 1000;
const cpu = cpuSince(cpuAtStart);
if (cpu !== null) {
  console.log(
    `time: ${(wall / 60).toFixed(1)} min, CPU ${(cpu / 60).toFixed(1)} min: ` +
      `on average ${(cpu / wall).toFixed(2)} of ${os.availableParallelism()} cores busy`,
  );
}
const { passed, failed, skipped } = counts();
const failedSteps = results.filter((result) => !result.ok).length;
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
for (const line of failures()) console.log(`failed: ${line}`);
process.exit(failedSteps > 0 || failed > 0 ? 1 : 0);
