/**
 * A process on one v2 credential pair, for test/client/v2-token-processes.test.ts: the real client
 * with its token kept in the shared store (`openTokenStore`, as `matchday start` on v2 does), reading
 * the local service's /v2. It reads, prints one JSON line (`ready`), then waits for its stdin to
 * close, reads again and prints a second line (`done`) before exiting.
 *
 *   node --import tsx test/client/child-v2-token.ts <v2 url> <client id> <client secret> <sqlite path | redis url>
 */
import { createClient } from '../../src/client/client.ts';
import { openTokenStore } from '../../src/client/v2/token-store.ts';

const [baseUrl, clientId, clientSecret, where] = process.argv.slice(2) as [string, string, string, string];
const tokenStore = openTokenStore(
  where.startsWith('redis://') ? { kind: 'redis', url: where } : { kind: 'sqlite', path: where },
);
const client = createClient({
  baseUrl,
  v2: { clientId, clientSecret, tokenStore },
  rate: { perSecond: 1000, burst: 1000 },
});
const say = (phase: string) =>
  process.stdout.write(
    `${JSON.stringify({ phase, pid: process.pid, tokenRequests: client.stats().tokenRequests })}\n`,
  );

await Promise.all([client.games.list(), client.teams.list({ take: 5 })]);
say('ready');
process.stdin.resume();
await new Promise((resolve) => process.stdin.on('end', resolve));
await client.tournaments.list({ take: 5 });
say('done');
await client.close();
await tokenStore.disconnect();
process.exit(0);
