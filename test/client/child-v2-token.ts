/**
 * A process on one v2 credential pair, for test/client/v2-token-processes.test.ts: the real client
 * with its token kept in the shared store and its lock (`openTokenStore`, `openTokenLock`, as
 * `matchday start` on v2 does), reading the local service's /v2. It opens the store and prints
 * `armed`; on its first stdin line it makes three calls at once and prints `ready`; when its stdin
 * closes it reads again and prints `done`, then exits. Each line is one JSON object.
 *
 *   node --import tsx test/client/child-v2-token.ts <v2 url> <client id> <client secret> <sqlite path | redis url> [nolock]
 *
 * `nolock`: without the lock (the race the lock closes: both processes may ask at once).
 */
import { createInterface } from 'node:readline';
import { createClient } from '../../src/client/client.ts';
import { openTokenLock, openTokenStore } from '../../src/client/v2/token-store.ts';

const [baseUrl, clientId, clientSecret, where, mode] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string | undefined,
];
const config = where.startsWith('redis://')
  ? ({ kind: 'redis', url: where } as const)
  : ({ kind: 'sqlite', path: where } as const);
const tokenStore = openTokenStore(config);
const tokenLock = mode === 'nolock' ? undefined : openTokenLock(config);
const client = createClient({
  baseUrl,
  v2: { clientId, clientSecret, tokenStore, ...(tokenLock ? { tokenLock } : {}) },
  rate: { perSecond: 1000, burst: 1000 },
  deadlines: { interactiveMs: 20_000, backgroundMs: 20_000 },
});
const say = (phase: string) =>
  process.stdout.write(
    `${JSON.stringify({ phase, pid: process.pid, tokenRequests: client.stats().tokenRequests })}\n`,
  );

const lines = createInterface({ input: process.stdin });
const ended = new Promise((resolve) => lines.once('close', resolve));
const go = new Promise((resolve) => lines.once('line', resolve));
say('armed');
await go;
await Promise.all([
  client.games.list(),
  client.teams.list({ take: 5 }),
  client.tournaments.list({ take: 5 }),
]);
say('ready');
await ended;
await client.tournaments.list({ take: 5, skip: 5 });
say('done');
await client.close();
await tokenStore.disconnect();
await tokenLock?.close();
process.exit(0);
