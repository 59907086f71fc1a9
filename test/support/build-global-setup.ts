/**
 * Vitest global setup of the projects that run the `quayside` command, the built app or many
 * workers: builds them when any source is newer than the last build (scripts/lib/setup.mjs, as
 * npm start and npm test do), so a test never runs yesterday's build. With the build current,
 * code under test starts the built workers instead of compiling their sources through tsx
 * (src/native/worker-entry.ts): about 2.5 s of CPU saved at each of the run's hundred or so
 * worker starts.
 */
import { join } from 'node:path';
import { BUILT_WORKERS_ENV } from '../../src/native/worker-entry';

const SETUP = new URL('../../scripts/lib/setup.mjs', import.meta.url).href;

/**
 * Builds where the build is older than the sources, and names its workers for this process and
 * the ones it starts afterwards. Also used where no global setup ran (Playwright's workers,
 * through built-child.ts).
 */
export async function useFreshBuild(): Promise<void> {
  const { ensureBuild, root } = (await import(SETUP)) as { ensureBuild: () => void; root: string };
  ensureBuild();
  process.env[BUILT_WORKERS_ENV] = join(root, 'out', 'main');
}

/** Run before Vitest starts its test processes, which inherit the variable. */
export const setup = useFreshBuild;
