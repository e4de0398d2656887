/**
 * A notifier process for the restart test and the crash bench: runs the local service in-process
 * (same seed, so the same world) and ticks a frozen clock from `from` to `to`, recording every
 * delivery to a file and its progress to another. The parent kills it with SIGKILL mid-run (or it
 * kills itself right after a post) and starts it again.
 *
 *   node --import tsx test/notify/child-notifier.ts <ledger> <out.jsonl> <progress> <from> <to> <tickMs> [options]
 *
 * `<ledger>`: a SQLite file, or `redis://...` (the Redis ledger, prefix `child:<progress path>:`).
 * Options: `--holder ID` (the instance identity: the restarted process takes its claims over at
 * once), `--post-delay MS` (paced posting), `--platform nonce|history` (how the platform dedupes,
 * see `RecordingDelivery.dedupe`), `--die-after-post N` (SIGKILL itself right after its Nth post).
 * With `CRASH_LOG=<file>` the notifier's log lines are appended there (to look into a loss).
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createClient } from '../../src/client/client.ts';
import type { Ledger } from '../../src/notify/ledger.ts';
import { createNotifier } from '../../src/notify/notifier.ts';
import { RedisLedger } from '../../src/notify/redis-ledger.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { Clock } from '../../src/service/clock.ts';
import { startService } from '../../src/service/index.ts';
import { CHILD_SEED, CHILD_TENANTS } from './child-tenants.ts';
import { MemoryTenants, memoryLogger, RecordingDelivery } from './helpers.ts';

const [ledgerArg, outPath, progressPath, fromArg, toArg, tickArg, ...rest] = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : undefined;
};
const to = Number(toArg);
const tick = Number(tickArg);
// Restarted: carry on from where the killed process got to.
const from = existsSync(progressPath!) ? Number(readFileSync(progressPath!, 'utf8')) : Number(fromArg);

const clock = new Clock({ start: new Date(from), frozen: true });
const service = await startService({ port: 0, seed: CHILD_SEED, clock, rate: 0 });
const tenants = new MemoryTenants();
for (const [id, s] of CHILD_TENANTS) tenants.set(id, s);
const delivery = new RecordingDelivery('discord', () => clock.nowMs(), outPath);
delivery.dedupe = option('--platform') === 'history' ? 'history' : 'nonce';
delivery.postDelayMs = Number(option('--post-delay') ?? 0);
const dieAfter = Number(option('--die-after-post') ?? 0);
if (dieAfter > 0) {
  let posts = 0;
  delivery.afterPost = () => {
    if (++posts === dieAfter) process.kill(process.pid, 'SIGKILL');
  };
}
// The platform remembers the posts it already took (Discord's nonce, Slack's history): reload them.
if (existsSync(outPath!)) {
  for (const line of readFileSync(outPath!, 'utf8').split('\n')) {
    if (!line) continue;
    const rec = JSON.parse(line) as { op: string; key: string; messageId: string };
    if (rec.op === 'post') delivery.byKey.set(rec.key, rec.messageId);
  }
}
function fileLogger(path: string) {
  const at = (level: string) => (obj: unknown, msg?: string) =>
    appendFileSync(
      path,
      `${JSON.stringify({ pid: process.pid, t: clock.nowMs(), level, msg, obj: obj instanceof Error ? String(obj) : obj })}\n`,
    );
  return { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') };
}
const holder = option('--holder');
// A short lease: without an identity, the restarted process takes over a claim once it ran out.
const ledgerOptions = { leaseMs: 200, ...(holder ? { holder } : {}) };
const ledger: Ledger = ledgerArg!.startsWith('redis://')
  ? new RedisLedger(ledgerArg!, { ...ledgerOptions, prefix: `child:${progressPath}:` })
  : new SqliteLedger(ledgerArg!, ledgerOptions);
const notifier = createNotifier({
  client: createClient({
    baseUrl: service.url,
    secret: service.secret,
    rate: { perSecond: 1e5, burst: 1e5 },
    ttl: { series: 0, matches: 0, live: 0 },
  }),
  tenants,
  clock,
  ledger,
  deliveries: { discord: delivery },
  logger: (process.env.CRASH_LOG ? fileLogger(process.env.CRASH_LOG) : memoryLogger()) as never,
  editIntervalMs: 0,
});
for (let t = from; t < to; t += tick) {
  clock.set(new Date(t));
  await notifier.tick();
  writeFileSync(progressPath!, String(t));
}
await notifier.drain();
writeFileSync(`${progressPath}.done`, `deduped=${delivery.deduped}`);
await notifier.stop();
await ledger.close();
await service.close();
process.exit(0);
