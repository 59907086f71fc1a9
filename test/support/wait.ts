/**
 * Waiting on a condition driven by real I/O or another process: it is checked every
 * `intervalMs` until it holds. The limit is an outer one for a run that hangs: on a busy
 * machine the wait grows, and the test still passes.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
  intervalMs = 25,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
