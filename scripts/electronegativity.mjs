// Runs @doyensec/electronegativity over the sources and fails on any HIGH or MEDIUM finding
// (the tool itself always exits 0). Findings reviewed and accepted are marked in the code with
// `/* eng-disable CHECK_NAME */` next to the reason.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, run } from './lib/setup.mjs';

const electronVersion = JSON.parse(
  readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8'),
).version;
const report = join(root, '.tmp', 'electronegativity.csv');
mkdirSync(join(root, '.tmp'), { recursive: true });
const status = run(process.execPath, [
  join(root, 'node_modules', '@doyensec', 'electronegativity', 'dist', 'index.js'),
  '--input',
  join(root, 'src'),
  '--electron-version',
  electronVersion,
  '--output',
  report,
  '--relative',
  '--verbose',
  'false',
]);
if (status !== 0) {
  console.error('electronegativity did not run');
  process.exit(1);
}

// CSV columns: issue, severity, confidence, filename, location, sample, description, url
const findings = readFileSync(report, 'utf8')
  .split('\n')
  .slice(1)
  .filter((line) => line.trim() !== '')
  .map((line) => {
    const [issue, severity, confidence, filename, location] = line
      .split(',')
      .map((cell) => cell.replace(/^"|"$/g, ''));
    return { issue, severity, confidence, filename, location };
  });
for (const finding of findings) {
  console.log(
    `${finding.severity.padEnd(13)} ${finding.issue} ${finding.filename}:${finding.location}`,
  );
}
const blocking = findings.filter(
  (finding) => finding.severity === 'HIGH' || finding.severity === 'MEDIUM',
);
console.log(`electronegativity: ${findings.length} findings, ${blocking.length} HIGH or MEDIUM`);
process.exit(blocking.length > 0 ? 1 : 0);
