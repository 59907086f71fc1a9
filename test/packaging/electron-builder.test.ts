/**
 * The installers' configuration, checked without downloading Electron: electron-builder's own
 * schema validation of electron-builder.yml, and the file set its own matchers pick from this
 * checkout for app.asar (after `npm run build`, which `npm test` runs first).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const require = createRequire(import.meta.url);

type Configuration = Record<string, unknown> & { directories?: { output?: string } };
type Filter = (file: string, stat: ReturnType<typeof statSync>) => boolean;
interface FileMatcher {
  createFilter(): Filter;
}
interface ConfigModule {
  getConfig(
    projectDir: string,
    configPath: string | null,
    fromOptions: null,
  ): Promise<Configuration>;
  validateConfiguration(config: Configuration, logger: unknown): Promise<void>;
}
interface FileMatcherModule {
  getMainFileMatchers(
    appDir: string,
    destination: string,
    macroExpander: (pattern: string) => string,
    platformOptions: object,
    platformPackager: object,
    outDir: string,
    isElectronCompile: boolean,
  ): FileMatcher[];
  getFileMatchers(
    config: Configuration,
    name: 'asarUnpack',
    destination: string,
    options: object,
  ): FileMatcher[] | null;
}

const { getConfig, validateConfiguration } =
  require('app-builder-lib/out/util/config/config') as ConfigModule;
const { getMainFileMatchers, getFileMatchers } =
  require('app-builder-lib/out/fileMatcher') as FileMatcherModule;
const { DebugLogger } = require('builder-util') as {
  DebugLogger: new (enabled: boolean) => unknown;
};

const loadConfig = () => getConfig(ROOT, 'electron-builder.yml', null);

/** Files under ROOT (node_modules aside: electron-builder adds production dependencies itself). */
function packagedFiles(filter: Filter): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = join(dir, name);
      if (file === join(ROOT, 'node_modules') || name === '.git') continue;
      const stat = statSync(file);
      if (!filter(file, stat)) continue;
      if (stat.isDirectory()) walk(file);
      else found.push(relative(ROOT, file).split(sep).join('/'));
    }
  };
  walk(ROOT);
  return found.sort();
}

async function appFileSet(): Promise<string[]> {
  const config = await loadConfig();
  const outDir = resolve(ROOT, config.directories?.output ?? 'dist');
  const platformPackager = {
    info: {
      projectDir: ROOT,
      buildResourcesDir: 'build',
      config,
      isPrepackedAppAsar: false,
      debugLogger: new DebugLogger(false),
    },
  };
  const [matcher] = getMainFileMatchers(ROOT, '', (p) => p, {}, platformPackager, outDir, false);
  return packagedFiles(matcher!.createFilter());
}

describe('electron-builder.yml', () => {
  it('passes electron-builder’s own configuration check', async () => {
    const config = await loadConfig();
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    expect(config).toMatchObject({ appId: 'com.quayside.desktop', productName: 'Quayside' });
  });

  it('is a check that fails: an unknown option is rejected', async () => {
    const config = { ...(await loadConfig()), notAnOption: true };
    await expect(validateConfiguration(config, new DebugLogger(false))).rejects.toThrow(
      /notAnOption/,
    );
  });

  it('builds AppImage and deb on Linux, NSIS on Windows and dmg (+ the zip updates need) on macOS, with no file associations', async () => {
    const config = await loadConfig();
    expect(config).toMatchObject({
      linux: { target: ['AppImage', 'deb'] },
      win: { target: ['nsis'], icon: 'build/icon.ico' },
      mac: { target: ['dmg', 'zip'], icon: 'build/icon.icns' },
      fileAssociations: [],
    });
    for (const icon of ['build/icon.ico', 'build/icon.icns', 'build/icons/512x512.png']) {
      expect(existsSync(join(ROOT, icon)), icon).toBe(true);
    }
  });

  describe('the packaged file set', () => {
    it('holds the main process, preload, renderer, service process, reference data, basemap and icons', async () => {
      expect(
        existsSync(join(ROOT, 'out/main/index.js')),
        'run `npm run build` before this test (npm test does)',
      ).toBe(true);
      const files = await appFileSet();
      for (const file of [
        'package.json',
        'out/main/index.js',
        'out/preload/index.cjs',
        'out/renderer/index.html',
        'out/main/service-process.js',
        'resources/reference/ports.json',
        'resources/reference/terminals.json',
        'resources/reference/shipping_lines.json',
        'build/icon.ico',
        'build/icons/32x32.png',
        'build/badges/9plus.png',
      ]) {
        expect(files, file).toContain(file);
      }
      // The offline basemap is bundled by the renderer build as its own chunk.
      expect(
        files.some((file) => /^out\/renderer\/assets\/countries-110m-.*\.js$/.test(file)),
      ).toBe(true);
    });

    it('leaves out tests, sources, scripts, source maps and build-only files', async () => {
      const files = await appFileSet();
      const leaked = files.filter((file) =>
        /^(src|test|scripts|bench|\.github|dist|\.tmp)\/|\.map$|\.ts$|^electron-builder\.yml$|^build\/icon\.svg$/.test(
          file,
        ),
      );
      expect(leaked).toEqual([]);
    });

    it('unpacks the Electron build of better-sqlite3 next to app.asar', async () => {
      const config = await loadConfig();
      const [unpack] =
        getFileMatchers(config, 'asarUnpack', '', {
          macroExpander: (p: string) => p,
          customBuildOptions: {},
          globalOutDir: join(ROOT, 'dist'),
          defaultSrc: ROOT,
        }) ?? [];
      const filter = unpack!.createFilter();
      const fileStat = statSync(join(ROOT, 'package.json'));
      const addon = join(ROOT, 'native', 'electron-abi140', 'better_sqlite3.node');
      expect(filter(addon, fileStat)).toBe(true);
      expect(filter(join(ROOT, 'out', 'main', 'index.js'), fileStat)).toBe(false);
    });
  });
});
