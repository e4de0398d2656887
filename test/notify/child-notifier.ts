/**
 * A notifier process for the restart test: runs the local service in-process (same seed, so the
 * same world) and ticks a frozen clock from `from` to `to`, recording every delivery to a file and
 * its progress to another. The parent kills it with SIGKILL mid-run and starts it again.
 *
 *   node --import tsx test/notify/child-notifier.ts <ledger> <out.jsonl> <progress> <from> <to> <tickMs>
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createClient } from '../../src/client/client.ts';
import { createNotifier } from '../../src/notify/notifier.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { Clock } from '../../src/service/clock.ts';
import { startService } from '../../src/service/index.ts';
import { CHILD_SEED, CHILD_TENANTS } from './child-tenants.ts';
import { MemoryTenants, memoryLogger, RecordingDelivery } from './helpers.ts';

const [ledgerPath, outPath, progressPath, fromArg, toArg, tickArg] = process.argv.slice(2);
const to = Number(toArg);
const tick = Number(tickArg);
// Restarted: carry on from where the killed process got to.
const from = existsSync(progressPath!) ? Number(readFileSync(progressPath!, 'utf8')) : Number(fromArg);

const clock = new Clock({ start: new Date(from), frozen: true });
const service = await startService({ port: 0, seed: CHILD_SEED, clock, rate: 0 });
const tenants = new MemoryTenants();
for (const [id, s] of CHILD_TENANTS) tenants.set(id, s);
const delivery = new RecordingDelivery('discord', () => clock.nowMs(), outPath);
// The platform remembers the keys of posts it already took (Discord's nonce): reload them.
if (existsSync(outPath!)) {
  for (const line of readFileSync(outPath!, 'utf8').split('\n')) {
    if (!line) continue;
    const rec = JSON.parse(line) as { op: string; key: string; messageId: string };
    if (rec.op === 'post') delivery.byKey.set(rec.key, rec.messageId);
  }
}
// A short lease: the restarted process may take over a claim the killed one held.
const ledger = new SqliteLedger(ledgerPath, { leaseMs: 200 });
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
  logger: memoryLogger() as never,
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
