// Where Electron's runtime is downloaded from, and whether that address answers. No imports from
// the project: `npm start` asks this before any dependency is installed.

/** The release archive @electron/get and electron-builder download (ELECTRON_MIRROR honoured). */
export function electronReleaseUrlFor(version, platform = process.platform, arch = process.arch) {
  const mirror =
    process.env.ELECTRON_MIRROR ?? 'https://github.com/electron/electron/releases/download/';
  const base = mirror.endsWith('/') ? mirror : `${mirror}/`;
  return `${base}v${version}/electron-v${version}-${platform}-${arch}.zip`;
}

/** Resolves to null when `url` answers, else to a short reason (status or network error). */
export async function unreachableReason(url, timeoutMs = 15_000) {
  try {
    const response = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(timeoutMs) });
    return response.ok ? null : `HTTP ${response.status}`;
  } catch (error) {
    const cause = error?.cause?.code ?? error?.cause?.message ?? error?.message ?? String(error);
    return String(cause);
  }
}
