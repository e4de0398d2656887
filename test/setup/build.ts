/**
 * vitest's global set-up: `dist/` built from the current sources before any test runs, once per run
 * (scripts/build.mjs; nothing is written when it is up to date). Tests that start the real `matchday`
 * command (bin/matchday.mjs runs dist/cli.mjs) then start at once, on a fresh clone too.
 */
import { ensureBuilt } from '../../scripts/build.mjs';

export default async function setup(): Promise<void> {
  await ensureBuilt();
}
