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
 *
 * For the faults bench's processes (`bench/notify-faults.ts --kills`): `--follow FILE` ticks at the
 * instants the parent writes to FILE (one simulated clock for every instance; `end` stops it),
 * `--rate-limited SHARE` answers that share of posts 429 (Retry-After 30-120 s: up to 60 s waited out
 * inline at 5 real ms per second, longer ones handed back), `--seed S` seeds those 429s, `--copies N`
 * runs N copies of the tenants, and `--prefix P` names the Redis ledger's prefix (shared by instances).
 * `--wait-for FILE` (the crash loop's standby): start up, then wait for FILE before opening the ledger.
 * `--dm-discord URL --dm-discord-token T --dm-slack URL --dm-slack-token T`: DMs to the people of
 * `dmProfiles` through the real deliveries, against the parent's fakes (`DmRouter` below).
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { REST } from 'discord.js';
import type { Reply } from '../../src/bot/reply.ts';
import { createClient } from '../../src/client/client.ts';
import { Clock } from '../../src/core/clock.ts';
import type { Platform } from '../../src/core/tenant-id.ts';
import type { ChannelTarget, Delivery, PostOptions } from '../../src/notify/delivery.ts';
import { DeliveryError } from '../../src/notify/delivery-error.ts';
import type { NotifyUsers } from '../../src/notify/jobs/dm.ts';
import type { Ledger } from '../../src/notify/ledger.ts';
import { createNotifier } from '../../src/notify/notifier.ts';
import { RedisLedger } from '../../src/notify/redis-ledger.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { DiscordDelivery } from '../../src/platforms/discord/delivery.ts';
import { createDeliveryClient, SlackDelivery } from '../../src/platforms/slack/delivery.ts';
import { startService } from '../../src/service/index.ts';
import { Rng } from '../../src/service/random.ts';
import { CHILD_SEED, childTenants, dmProfiles, memoryUsers } from './child-tenants.ts';
import { MemoryTenants, memoryLogger, RecordingDelivery } from './helpers.ts';

const [ledgerArg, outPath, progressPath, fromArg, toArg, tickArg, ...rest] = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : undefined;
};
const to = Number(toArg);
const tick = Number(tickArg);
const clock = new Clock({ start: new Date(Number(fromArg)), frozen: true });
const service = await startService({ port: 0, seed: CHILD_SEED, clock, rate: 0 });
const tenants = new MemoryTenants();
for (const [id, s] of childTenants(Number(option('--copies') ?? 1))) tenants.set(id, s);
const delivery = new RecordingDelivery('discord', () => clock.nowMs(), outPath);
delivery.dedupe = option('--platform') === 'history' ? 'history' : 'nonce';
delivery.postDelayMs = Number(option('--post-delay') ?? 0);
const dieAfter = Number(option('--die-after-post') ?? 0);
let posts = 0;
/** Right after a post the platform accepted (a channel's or a DM), before its mark. */
const afterPost = () => {
  if (dieAfter > 0 && ++posts === dieAfter) process.kill(process.pid, 'SIGKILL');
};
delivery.afterPost = afterPost;
// A standby (`--wait-for FILE`): started ahead of time by the crash loop, it waits here, its imports
// done and its service built, until FILE exists (its predecessor is dead), then goes on as a restart.
const waitFor = option('--wait-for');
while (waitFor && !existsSync(waitFor)) await new Promise((resolve) => setTimeout(resolve, 5));
// Restarted: carry on from where the killed process got to.
const from = existsSync(progressPath!) ? Number(readFileSync(progressPath!, 'utf8')) : Number(fromArg);
clock.set(new Date(from));
// The platform remembers the posts it already took (Discord's nonce, Slack's history): reload them.
reloadPosts();
function fileLogger(path: string) {
  const at = (level: string) => (obj: unknown, msg?: string) =>
    appendFileSync(
      path,
      `${JSON.stringify({ pid: process.pid, t: clock.nowMs(), level, msg, obj: obj instanceof Error ? String(obj) : obj })}\n`,
    );
  return { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') };
}
/**
 * A platform that answers a share of posts 429 (see the header). A post that reconciles reads the
 * shared record first: the channel's history holds every instance's posts, not only this process'.
 */
class RateLimitedDelivery implements Delivery {
  readonly platform = 'discord' as const;
  readonly #rng = new Rng(option('--seed') ?? 1, 'child', option('--holder') ?? '', process.pid);
  constructor(
    readonly inner: typeof delivery,
    readonly share: number,
  ) {}
  async post(target: ChannelTarget, reply: Reply, key: string, options: PostOptions = {}) {
    while (this.#rng.next() < this.share) {
      const seconds = 30 + Math.floor(this.#rng.next() * 91);
      logger.debug({ seconds }, 'rate limited');
      if (seconds > 60) throw new DeliveryError('transient', 'RATE_LIMITED', 'rate limited', seconds * 1000);
      await new Promise((resolve) => setTimeout(resolve, seconds * 5));
    }
    if (options.reconcile) reloadPosts();
    return this.inner.post(target, reply, key, options);
  }
  edit(target: ChannelTarget, messageId: string, reply: Reply) {
    return this.inner.edit(target, messageId, reply);
  }
}
function reloadPosts(): void {
  if (!existsSync(outPath!)) return;
  for (const line of readFileSync(outPath!, 'utf8').split('\n')) {
    if (!line) continue;
    const rec = JSON.parse(line) as { op: string; key: string; messageId: string };
    if (rec.op === 'post' && !delivery.byKey.has(rec.key)) delivery.byKey.set(rec.key, rec.messageId);
  }
}
const share = Number(option('--rate-limited') ?? 0);
const holder = option('--holder');
const logger = process.env.CRASH_LOG ? fileLogger(process.env.CRASH_LOG) : memoryLogger();
// A short lease: without an identity, the restarted process takes over a claim once it ran out.
const ledgerOptions = { leaseMs: 200, ...(holder ? { holder } : {}) };
const ledger: Ledger = ledgerArg!.startsWith('redis://')
  ? new RedisLedger(ledgerArg!, { ...ledgerOptions, prefix: option('--prefix') ?? `child:${progressPath}:` })
  : new SqliteLedger(ledgerArg!, ledgerOptions);
/**
 * DMs (`--dm-discord URL --dm-discord-token T --dm-slack URL --dm-slack-token T`): the people of
 * `dmProfiles` get theirs through the real Discord and Slack deliveries, against the fakes the parent
 * runs (they outlive every kill, and count what arrived); channel posts stay recorded as above.
 */
class DmRouter implements Delivery {
  constructor(
    readonly platform: Platform,
    readonly dms: Delivery,
    readonly channels?: Delivery,
  ) {}
  #for(target: ChannelTarget): Delivery {
    return target.channelId.startsWith('dm:') || !this.channels ? this.dms : this.channels;
  }
  async post(target: ChannelTarget, reply: Reply, key: string, options: PostOptions = {}) {
    const into = this.#for(target);
    const posted = await into.post(target, reply, key, options);
    if (into === this.dms) afterPost();
    return posted;
  }
  edit(target: ChannelTarget, messageId: string, reply: Reply) {
    return this.#for(target).edit(target, messageId, reply);
  }
}
const deliveries: Partial<Record<Platform, Delivery>> = {
  discord: share > 0 ? new RateLimitedDelivery(delivery, share) : delivery,
};
let users: NotifyUsers | undefined;
const dmDiscord = option('--dm-discord');
const dmSlack = option('--dm-slack');
if (dmDiscord && dmSlack) {
  users = memoryUsers(dmProfiles(service.world, Number(fromArg)));
  const rest = new REST({ api: dmDiscord, retries: 0, timeout: 5000 }).setToken(
    option('--dm-discord-token')!,
  );
  deliveries.discord = new DmRouter('discord', new DiscordDelivery({ rest }), deliveries.discord);
  const slack = createDeliveryClient(option('--dm-slack-token')!, { apiUrl: dmSlack });
  deliveries.slack = new DmRouter('slack', new SlackDelivery({ client: slack, minIntervalMs: 0 }));
}
const notifier = createNotifier({
  client: createClient({
    baseUrl: service.url,
    secret: service.secret,
    rate: { perSecond: 1e5, burst: 1e5 },
    ttl: { series: 0, matches: 0, live: 0, substages: 0 },
  }),
  tenants,
  clock,
  ledger,
  deliveries,
  logger: logger as never,
  editIntervalMs: 0,
  ...(users ? { users } : {}),
});
const follow = option('--follow');
if (follow) {
  // The parent's clock: tick at each instant it writes, until it writes `end`.
  let last = Number.NEGATIVE_INFINITY;
  for (;;) {
    const text = readFileSync(follow, 'utf8');
    if (text === 'end') break;
    const t = Number(text);
    if (t > last) {
      last = t;
      clock.set(new Date(t));
      await notifier.tick();
      writeFileSync(progressPath!, String(t));
    } else await new Promise((resolve) => setTimeout(resolve, 5));
  }
} else
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
