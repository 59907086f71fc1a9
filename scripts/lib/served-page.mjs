// `npm start -- --check`: waits for the app's "Quayside is running at <url>" line, then loads
// that page and the script it names, as a browser would. Waits on those events, not on a fixed
// time; the outer limit only bounds a start that never prints its url.
const URL_LINE = /Quayside is running at (\S+)/;
const START_LIMIT_MS = 5 * 60_000;

/** Resolves to { ok, detail } once the page is served, the app exits, or the limit passes. */
export function checkServedPage(child, exited) {
  return new Promise((resolve) => {
    let output = '';
    const timer = setTimeout(
      () => resolve({ ok: false, detail: 'the app printed no url within 5 minutes' }),
      START_LIMIT_MS,
    );
    exited.then((code) => {
      clearTimeout(timer);
      resolve({ ok: false, detail: `the app exited (${code}) before serving its page` });
    });
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      output += chunk.toString();
      const match = URL_LINE.exec(output);
      if (!match) return;
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      clearTimeout(timer);
      loadPage(match[1]).then(resolve, (error) =>
        resolve({ ok: false, detail: `${match[1].split('?')[0]}: ${error.message}` }),
      );
    });
  });
}

async function loadPage(url) {
  const page = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  const html = await page.text();
  if (!page.ok) throw new Error(`the page answered HTTP ${page.status}`);
  if (!/<div id="root">/.test(html)) throw new Error('the page has no app root');
  const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
  if (!script) throw new Error('the page names no script');
  const asset = await fetch(new URL(script, url), { signal: AbortSignal.timeout(60_000) });
  await asset.arrayBuffer();
  if (!asset.ok) throw new Error(`its script ${script} answered HTTP ${asset.status}`);
  return { ok: true, detail: `the app served its page and ${script}` };
}
