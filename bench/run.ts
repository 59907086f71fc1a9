/**
 * `npm run bench`: runs every benchmark in bench/ (or those named on the command line), prints one
 * table (name, value, baseline, ratio, target, pass/fail) and writes it as JSON to
 * bench/results/latest.json. Benchmarks never run inside `npm test`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { passes, RESULT_PREFIX, type BenchResult } from './lib/report';

const here = dirname(fileURLToPath(import.meta.url));
const requested = process.argv.slice(2);
const scripts = readdirSync(here)
  .filter((file) => file.endsWith('.ts') && file !== 'run.ts')
  .filter((file) => requested.length === 0 || requested.some((name) => file.startsWith(name)))
  .sort();

function runScript(file: string): Promise<{ results: BenchResult[]; ok: boolean }> {
  return new Promise((resolve) => {
    console.log(`\n=== ${file}`);
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, file)], {
      cwd: join(here, '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const results: BenchResult[] = [];
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith(RESULT_PREFIX))
          results.push(JSON.parse(line.slice(RESULT_PREFIX.length)));
        else console.log(`  ${line}`);
      }
    });
    child.on('close', (code) => resolve({ results, ok: code === 0 }));
  });
}

type Row = BenchResult & { script: string; pass: boolean | null; measuredAt?: string };
const all: Row[] = [];
const failedScripts: string[] = [];
const startedAt = new Date().toISOString();
for (const file of scripts) {
  const { results, ok } = await runScript(file);
  if (!ok) failedScripts.push(file);
  for (const result of results)
    all.push({ ...result, script: file, pass: passes(result), measuredAt: startedAt });
}

// Named benchmarks only: the rows of the others stay in latest.json from their own runs (each
// row says when it was measured), so single benches can be run one at a time on a busy machine.
const out = join(here, 'results', 'latest.json');
if (requested.length > 0 && existsSync(out)) {
  const previous = JSON.parse(readFileSync(out, 'utf8')) as { results?: Row[] };
  const kept = (previous.results ?? []).filter((row) => !scripts.includes(row.script));
  all.unshift(...kept);
}

const target = (r: BenchResult) =>
  r.target
    ? [
        r.target.min !== undefined ? `>= ${Number(r.target.min.toPrecision(3))}` : '',
        r.target.max !== undefined ? `<= ${Number(r.target.max.toPrecision(3))}` : '',
      ]
        .filter(Boolean)
        .join(' ')
    : '-';
const rows = all.map((r) => [
  r.name,
  `${r.value.toPrecision(4)} ${r.unit}`,
  `${r.baseline.toPrecision(4)} ${r.unit}`,
  r.ratio.toFixed(3),
  target(r),
  r.pass === null ? '-' : r.pass ? 'pass' : 'FAIL',
]);
const header = ['benchmark', 'value', 'baseline', 'ratio', 'target', 'result'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
for (const row of rows) console.log(line(row));
for (const file of failedScripts) console.log(`${file}: did not finish`);

mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, results: all, failedScripts }, null, 2)}\n`,
);
console.log(`\nwritten to ${out}`);
process.exit(failedScripts.length > 0 ? 1 : 0);
