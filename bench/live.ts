/**
 * Live-card lag with push and with polling, side by side in one run at the real clock, on the local
 * service over loopback: two Matchday stacks (client, feed, name index, notifier, a recording
 * Discord), one with the push consumer (`src/client/push.ts`) and one without, both following every
 * live series in one channel. For the first 10 live series, each state change in the world (its
 * instant, from `stateInstants`) is matched with the first edit of that series' card made when the
 * stack's feed held that match at that index or later: the lag is the edit's time less the change's
 * instant (p50, p95, max). Upstream REST requests per minute are the client's count (push's own
 * HTTP requests to `/v3/push` are reported apart: they do not draw on the REST budget).
 *
 *   npm run bench:live                 120 s of live play
 *   npm run bench:live -- --seconds 60
 *
 * Not measured (yet): the fault run of 50 forced disconnects and its wrong/missed finals and map
 * ends; those fields are absent from the JSON. Edits run at most every 100 ms per channel here (the
 * platforms' 1 s pacing, the same for both stacks, would otherwise queue 10+ cards in one channel);
 * the index a card shows is read when its edit is sent, which can be a change newer than the one
 * rendered (both stacks alike). The last line is one JSON object.
 */
import { createNameIndex } from '../src/bot/names.ts';
import { createClient, type EsportsClient } from '../src/client/client.ts';
import { PushConsumer } from '../src/client/push.ts';
import { Clock } from '../src/core/clock.ts';
import { createFeed, type Feed } from '../src/feed/feed.ts';
import type { ChannelTarget } from '../src/notify/delivery.ts';
import { createNotifier, type Notifier } from '../src/notify/notifier.ts';
import { SqliteLedger } from '../src/notify/sqlite-ledger.ts';
import { startService } from '../src/service/index.ts';
import { stateInstants } from '../src/service/push/channels.ts';
import type { SeriesPlan } from '../src/service/schedule.ts';
import { MemoryTenants, memoryLogger, RecordingDelivery } from '../test/notify/helpers.ts';

const secondsArg = process.argv.indexOf('--seconds');
const SECONDS = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : 120;
/** Changes in the first seconds are not counted: both stacks are still starting. */
const WARMUP_MS = 20_000;
/** Changes in the last seconds are not counted: their edits may fall after the end. */
const TAIL_MS = 25_000;
const START = Date.parse('2026-11-18T15:00:00.000Z');
const TRACKED = 10;

interface EditSeen {
  seriesId: number;
  matchId: number | undefined;
  index: number | undefined;
  at: number;
}

interface Stack {
  name: 'push' | 'poll';
  client: EsportsClient;
  feed: Feed;
  notifier: Notifier;
  delivery: RecordingDelivery;
  push: PushConsumer | undefined;
  edits: EditSeen[];
  stop(): Promise<void>;
}

const quantile = (xs: number[], q: number) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]!);
};

async function stack(
  name: 'push' | 'poll',
  service: { url: string; secret: string },
  clock: Clock,
): Promise<Stack> {
  const client = createClient({
    baseUrl: service.url,
    secret: service.secret,
    rate: { perSecond: 1000, burst: 1000 },
  });
  const logger = memoryLogger();
  const push =
    name === 'push' ? new PushConsumer({ url: `${service.url}/push`, secret: service.secret }) : undefined;
  const feed = createFeed({
    client,
    clock,
    logger,
    horizonMs: 3 * 3600_000,
    pastMs: 3600_000,
    ...(push ? { push } : {}),
  });
  const names = createNameIndex({ client, clock, logger });
  await names.refresh();
  await feed.start();
  const tenants = new MemoryTenants();
  tenants.set('discord:1', {
    tiers: [1, 2, 3, 4],
    channels: [{ id: 'c1', games: [], tiers: [], teams: [], kinds: ['live', 'results'], leads: [30] }],
  } as never);
  const delivery = new RecordingDelivery('discord', () => clock.nowMs());
  const edits: EditSeen[] = [];
  const seriesOfMessage = new Map<string, number>();
  const post = delivery.post.bind(delivery);
  delivery.post = async (target, reply, key, options) => {
    const posted = await post(target, reply, key, options);
    const m = /^live:(\d+):card:/.exec(key);
    if (m) seriesOfMessage.set(posted.messageId, Number(m[1]));
    return posted;
  };
  const edit = delivery.edit.bind(delivery);
  delivery.edit = async (target: ChannelTarget, messageId: string, reply) => {
    const seriesId = seriesOfMessage.get(messageId);
    if (seriesId !== undefined) {
      const summary = feed.liveData(seriesId)?.summary;
      const match = summary ? ((summary as { match?: { id?: number } }).match?.id ?? undefined) : undefined;
      edits.push({
        seriesId,
        matchId: match,
        index: summary?.latest_states_channel_index,
        at: clock.nowMs(),
      });
    }
    return edit(target, messageId, reply);
  };
  const ledger = new SqliteLedger(':memory:');
  const notifier = createNotifier({
    client,
    feed: { feed, names },
    tenants,
    clock,
    ledger,
    deliveries: { discord: delivery },
    logger,
    editIntervalMs: 100,
  });
  await notifier.start();
  return {
    name,
    client,
    feed,
    notifier,
    delivery,
    push,
    edits,
    async stop() {
      await notifier.stop();
      await feed.stop();
      await push?.stop();
      await ledger.close();
      names.stop();
      await client.close();
    },
  };
}

function lags(
  s: Stack,
  plans: SeriesPlan[],
  service: { world: Parameters<typeof stateInstants>[0] },
  from: number,
  to: number,
) {
  const out: number[] = [];
  let missed = 0;
  for (const plan of plans)
    for (const m of plan.matches) {
      const instants = stateInstants(service.world, plan, m);
      instants.forEach((at, i) => {
        if (at < from || at > to) return;
        const index = i + 1;
        const edit = s.edits.find(
          (e) => e.seriesId === plan.id && e.matchId === m.id && (e.index ?? 0) >= index && e.at >= at,
        );
        if (edit) out.push(edit.at - at);
        else missed++;
      });
    }
  return { out, missed };
}

async function main(): Promise<void> {
  const clock = new Clock({ start: new Date(START) });
  const service = await startService({ port: 0, seed: 42, clock, rate: 0 });
  const t0 = clock.nowMs();
  const stacks = [await stack('push', service, clock), await stack('poll', service, clock)];
  const startedAt = clock.nowMs();
  const requestsAt = stacks.map((s) => s.client.stats().upstreamTotal);
  const runFrom = startedAt + WARMUP_MS;
  const runTo = startedAt + SECONDS * 1000;
  process.stderr.write(`started in ${Math.round((startedAt - t0) / 1000)} s; running ${SECONDS} s\n`);
  await new Promise((resolve) => setTimeout(resolve, runTo - clock.nowMs()));
  // The first live series with a card in both stacks that play on through the run.
  const carded = (s: Stack) =>
    new Set(
      s.delivery
        .posts()
        .flatMap((r) => (/^live:(\d+):card:/.exec(r.key) ? [Number(r.key.split(':')[1])] : [])),
    );
  const both = [...carded(stacks[0]!)].filter((id) => carded(stacks[1]!).has(id));
  const plans = service.world
    .window(runFrom)
    .series.filter((p) => both.includes(p.id) && p.forfeit < 0 && p.deletedAt === null && p.end > runTo)
    .slice(0, TRACKED);
  const minutes = (clock.nowMs() - startedAt) / 60_000;
  const result: Record<string, number | null | string> = { seconds: SECONDS, tracked_series: plans.length };
  stacks.forEach((s, i) => {
    const { out, missed } = lags(s, plans, service, runFrom, runTo - TAIL_MS);
    result[`lag_p50_ms_${s.name}`] = quantile(out, 0.5);
    result[`lag_p95_ms_${s.name}`] = quantile(out, 0.95);
    result[`lag_max_ms_${s.name}`] = out.length ? Math.round(Math.max(...out)) : null;
    result[`changes_${s.name}`] = out.length;
    result[`changes_without_edit_${s.name}`] = missed;
    result[`requests_per_min_${s.name}`] =
      Math.round(((s.client.stats().upstreamTotal - requestsAt[i]!) / minutes) * 10) / 10;
    result[`edits_${s.name}`] = s.delivery.records.filter((r) => r.op === 'edit').length;
    result[`posts_${s.name}`] = s.delivery.records.filter((r) => r.op === 'post').length;
    result[`filling_${s.name}`] = String(s.feed.filling);
  });
  const push = stacks[0]!;
  result.push_http_requests = push.push?.stats.httpRequests ?? 0;
  result.push_messages = push.push?.stats.messages ?? 0;
  result.push_early_ticks =
    push.notifier instanceof Object
      ? (push.notifier as unknown as { stats: { pushTicks: number } }).stats.pushTicks
      : 0;
  for (const s of stacks) await s.stop();
  await service.close();
  console.log(JSON.stringify(result));
}

await main();
