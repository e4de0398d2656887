/**
 * A second process writing to the tenant store, for the concurrency tests:
 *   follow  <store url> <tenant> <first team id> <count> <start at ms>  - follows `count` teams, one update each
 *   tenants <store url> <prefix> <count> <start at ms>                  - adds `count` new tenants
 *   open    <store url>                                                  - opens the store; prints how that ended
 * Every write starts at the same instant in every child (`start at`); prints `{"done":n}` when finished.
 */
import { createLogger } from '../../src/bot/logger.ts';
import { openTenantStore } from '../../src/bot/tenants.ts';

const [mode, url, name, a, b, c] = process.argv.slice(2) as [string, string, string, string, string, string?];
if (mode === 'open') {
  const path = url.slice('sqlite://'.length);
  const outcome = await openTenantStore(
    { kind: 'sqlite', url, path },
    { logger: createLogger({ level: 'silent' }) },
  ).then(
    async (store) => {
      await store.close();
      return { opened: true };
    },
    (error: { name?: string; failure?: string; message?: string }) => ({
      opened: false,
      name: error.name,
      failure: error.failure,
      message: error.message,
    }),
  );
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
  process.exit(0);
}
const store = await openTenantStore(
  url.startsWith('sqlite://')
    ? { kind: 'sqlite', url, path: url.slice('sqlite://'.length) }
    : { kind: 'redis', url },
  { logger: createLogger({ level: 'warn' }), mirrorPath: false, timeoutMs: 5000 },
);
const startAt = Number(mode === 'follow' ? c : b);
await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
let done = 0;
if (mode === 'follow') {
  const first = Number(a);
  await Promise.all(
    Array.from({ length: Number(b) }, async (_, i) => {
      await store.update(name, (s) => ({ ...s, follows: [...s.follows, first + i] }));
      done++;
    }),
  );
} else {
  for (let i = 0; i < Number(a); i++) {
    await store.update(`discord:${name}-${i}`, (s) => ({ ...s, timezone: 'Europe/Berlin' }));
    done++;
  }
}
await store.close();
process.stdout.write(`${JSON.stringify({ done })}\n`);
