/**
 * Redis outages against the settings store and the Redis ledger (issue 19, item 3), on a
 * redis-server of the bench's own (a free loopback port). For each outage: Redis shuts down
 * (saving its data), stays down for the outage, then starts again with its data. Meanwhile a
 * command-like reader asks the settings store every 200 ms, and the ledger claims a key every 200 ms.
 * A last run kills Redis (no persistence: every key lost) and measures the restore from the mirror.
 *
 *   npm run bench:store-outage            10 s and 60 s outages, and a data loss
 *   npm run bench:store-outage -- --quick 10 s outage and a data loss (about 20 s)
 *
 * Figures: the slowest answer while Redis is down (a command must hear "unavailable" within 2 s),
 * how long after Redis is back the store and the ledger answer again (goal: well under 10 s), and
 * how many tenants were restored after the data loss. The last line is one JSON object.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../src/bot/logger.ts';
import { openTenantStore, StoreError } from '../src/bot/tenants.ts';
import { RedisLedger } from '../src/notify/redis-ledger.ts';
import { OwnRedis } from '../test/bot/redis-server.ts';

const quick = process.argv.includes('--quick');
const OUTAGES_S = quick ? [10] : [10, 60];
const TENANTS = 200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const dir = mkdtempSync(join(tmpdir(), 'matchday-outage-bench-'));
const redis = await OwnRedis.start(dir);
const logger = createLogger({ level: 'silent' });
const store = await openTenantStore(
  { kind: 'redis', url: redis.url },
  { logger, mirrorPath: join(dir, 'mirror.sqlite') },
);
const ledger = new RedisLedger(redis.url, { prefix: 'bench:ledger:' });
for (let i = 0; i < TENANTS; i++) await store.update(`discord:${i}`, (s) => ({ ...s, follows: [i] }));

interface Outage {
  outage_s: number;
  data_lost: boolean;
  store_calls_during: number;
  store_unavailable_answers: number;
  store_slowest_answer_ms: number;
  ledger_calls_during: number;
  store_resumed_after_ms: number;
  ledger_resumed_after_ms: number;
  tenants_after: number;
  settings_intact: boolean;
}

let keyCounter = 0;
async function outage(seconds: number, dataLost: boolean): Promise<Outage> {
  await redis.stop({ keepData: !dataLost });
  const downUntil = Date.now() + seconds * 1000;
  let calls = 0;
  let unavailable = 0;
  let slowest = 0;
  let ledgerCalls = 0;
  while (Date.now() < downUntil) {
    const started = performance.now();
    try {
      await store.get('discord:1');
    } catch (error) {
      if (error instanceof StoreError) unavailable++;
    }
    slowest = Math.max(slowest, performance.now() - started);
    calls++;
    await ledger.claim(`k${++keyCounter}`).catch(() => undefined);
    ledgerCalls++;
    await sleep(200);
  }
  await redis.restart();
  const back = performance.now();
  let storeBack = 0;
  let ledgerBack = 0;
  while (!storeBack || !ledgerBack) {
    if (
      !storeBack &&
      (await store.list().then(
        () => true,
        () => false,
      ))
    )
      storeBack = performance.now() - back;
    if (
      !ledgerBack &&
      (await ledger.claim(`k${++keyCounter}`).then(
        () => true,
        () => false,
      ))
    )
      ledgerBack = performance.now() - back;
    if (performance.now() - back > 60_000) break;
    await sleep(50);
  }
  const ids = await store.list();
  const sample = await store.get('discord:42');
  return {
    outage_s: seconds,
    data_lost: dataLost,
    store_calls_during: calls,
    store_unavailable_answers: unavailable,
    store_slowest_answer_ms: Math.round(slowest),
    ledger_calls_during: ledgerCalls,
    store_resumed_after_ms: Math.round(storeBack),
    ledger_resumed_after_ms: Math.round(ledgerBack),
    tenants_after: ids.length,
    settings_intact: ids.length === TENANTS && sample.follows.join() === '42',
  };
}

const results: Outage[] = [];
for (const seconds of OUTAGES_S) results.push(await outage(seconds, false));
results.push(await outage(2, true));
for (const r of results) {
  process.stdout.write(
    `${r.data_lost ? 'data lost ' : 'outage    '} ${String(r.outage_s).padStart(3)} s: ${r.store_unavailable_answers}/${r.store_calls_during} calls answered "unavailable", slowest ${r.store_slowest_answer_ms} ms; store back ${r.store_resumed_after_ms} ms, ledger back ${r.ledger_resumed_after_ms} ms after Redis; ${r.tenants_after}/${TENANTS} tenants, settings ${r.settings_intact ? 'intact' : 'NOT intact'}\n`,
  );
}
await store.close();
await ledger.close();
await redis.stop();
rmSync(dir, { recursive: true, force: true });
process.stdout.write(
  `${JSON.stringify({
    bench: 'store-outage',
    tenants: TENANTS,
    outages: results,
    slowest_unavailable_answer_ms: Math.max(...results.map((r) => r.store_slowest_answer_ms)),
    max_resume_ms: Math.max(...results.flatMap((r) => [r.store_resumed_after_ms, r.ledger_resumed_after_ms])),
    all_intact: results.every((r) => r.settings_intact),
  })}\n`,
);
