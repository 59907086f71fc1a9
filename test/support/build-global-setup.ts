/**
 * Vitest global setup of the projects that run the `quayside` command or the built app: builds
 * them when any source is newer than the last build (scripts/lib/setup.mjs, as npm start and
 * npm test do), so a test never runs yesterday's build.
 */
const SETUP = new URL('../../scripts/lib/setup.mjs', import.meta.url).href;

export async function setup() {
  const { ensureBuild } = (await import(SETUP)) as { ensureBuild: () => void };
  ensureBuild();
}
