// The one polling helper of the node tests (server, simulator): wait for something asynchronous (a delivery, a stored
// row, a status) by asking again every few milliseconds, bounded in time. `until` answers whether it came; `eventually`
// is its assertion form (the check throws until it passes; the last failure is thrown). The Playwright specs poll the
// page with Playwright's own `expect.poll`/`toPass`, and the e2e global setup waits for the gateway it started.
// The default bound is generous on purpose: it costs time only when the check never holds, and CI runs the whole suite
// on a loaded 2-core machine where a delivery that takes milliseconds here may take seconds. A test that names a
// latency asserts it with its own figure; the bound here only says "it came".
export const UNTIL_DEFAULT_MS = 10_000;

/** Polls `check` every `everyMs` until it holds or `ms` passes; answers the last check. */
export async function until(
  check: () => boolean | Promise<boolean>,
  ms = UNTIL_DEFAULT_MS,
  everyMs = 20,
): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  const last = await check();
  // said where: a wait that never holds costs its whole bound, and a test that ignores the answer hides it
  if (!last) process.stderr.write(`until: not within ${ms} ms ${callerOf(new Error().stack)}\n`);
  return last;
}

/** the first stack frame outside this file */
const callerOf = (stack = '') =>
  stack
    .split('\n')
    .slice(1)
    .find((line) => !line.includes('until.ts'))
    ?.trim() ?? '';

/** Polls `check` until it stops throwing (at most `ms`), for asynchronous deliveries; throws its last failure. */
export async function eventually(check: () => void, ms = UNTIL_DEFAULT_MS): Promise<void> {
  const passes = () => {
    try {
      check();
      return true;
    } catch {
      return false;
    }
  };
  if (!(await until(passes, ms, 10))) check();
}
