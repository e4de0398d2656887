#!/usr/bin/env node
// The `matchday` command: runs dist/cli.mjs, the JavaScript `npm run build` (scripts/build.mjs) makes
// of src/cli.ts. In a source checkout (src/ beside bin/) dist/ is built first when it is missing or
// older than a source; the image ships dist/ without src/ and runs it as it is.
import { existsSync } from 'node:fs';

if (existsSync(new URL('../src/cli.ts', import.meta.url))) {
  const { ensureBuilt } = await import('../scripts/build.mjs');
  try {
    await ensureBuilt();
  } catch (error) {
    // esbuild has printed what in the sources it could not build.
    if (!error?.errors) process.stderr.write(`${error?.message ?? error}\n`);
    process.exit(1);
  }
}
const { main } = await import('../dist/cli.mjs');
await main(process.argv.slice(2));
