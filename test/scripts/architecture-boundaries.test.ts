/**
 * The boundaries ARCHITECTURE.md states are lint rules: an import across one fails `npm test`'s
 * lint step. Each case lints one line as if it stood in a file of that folder.
 */
import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: ROOT });

async function restricted(file: string, source: string): Promise<boolean> {
  const [result] = await eslint.lintText(source, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).some((message) => message.ruleId === 'no-restricted-imports');
}

/** `import { name } from 'from'`, used, as it would stand in `file`. */
const importing = (name: string, from: string) =>
  `import { ${name} } from '${from}';\nexport const used = ${name};\n`;

const crossings: [string, string, string, string][] = [
  ['main → service', 'src/main/core/probe.ts', 'startService', '../../service'],
  [
    'main/electron → service',
    'src/main/electron/probe.ts',
    'SECRET_KEY_FILE',
    '../../service/security/secret-box',
  ],
  ['main → sim', 'src/main/sync/probe.ts', 'buildWorld', '../../sim/world/build'],
  ['sim → service', 'src/sim/world/probe.ts', 'startService', '../../service'],
  ['sim → main', 'src/sim/world/probe.ts', 'AppCore', '../../main/core/app-core'],
  ['service → sim', 'src/service/api/probe.ts', 'buildWorld', '../../sim/world/build'],
  ['service → main', 'src/service/api/probe.ts', 'AppCore', '../../main/core/app-core'],
  ['renderer → Node', 'src/renderer/views/probe.ts', 'readFileSync', 'node:fs'],
  ['renderer → main', 'src/renderer/views/probe.ts', 'AppCore', '../../main/core/app-core'],
  ['shared → Node', 'src/shared/probe.ts', 'readFileSync', 'node:fs'],
  ['main outside electron → electron', 'src/main/core/probe.ts', 'app', 'electron'],
  ['main/sync → main/core', 'src/main/sync/probe.ts', 'AppCore', '../core/app-core'],
  [
    'service/store → routing',
    'src/service/store/probe.ts',
    'buildRouteMap',
    '../routing/route-map',
  ],
  ['main/cache → main/core', 'src/main/cache/probe.ts', 'AppCore', '../core/app-core'],
  ['service outside the store → Kysely', 'src/service/webhooks/probe.ts', 'sql', 'kysely'],
  ['embedded → Kysely', 'src/embedded/probe.ts', 'sql', 'kysely'],
  ['a test outside test/support → Kysely', 'test/service/probe.test.ts', 'sql', 'kysely'],
];

describe('architecture boundaries', () => {
  it.each(crossings)('%s is refused by lint', async (_name, file, name, from) => {
    expect(await restricted(file, importing(name, from))).toBe(true);
  });

  it('allowed imports pass: main → shared, main → the embedded composition', async () => {
    expect(
      await restricted(
        'src/main/electron/probe.ts',
        importing('SECRET_KEY_ENV', '../../shared/service-env'),
      ),
    ).toBe(false);
    expect(
      await restricted(
        'src/main/service-launcher/probe.ts',
        importing('OPTIONS_ENV', '../../embedded/protocol'),
      ),
    ).toBe(false);
  });

  it('the store and test/support may use Kysely', async () => {
    expect(await restricted('src/service/store/probe.ts', importing('sql', 'kysely'))).toBe(false);
    expect(await restricted('test/support/probe.ts', importing('sql', 'kysely'))).toBe(false);
  });
});
