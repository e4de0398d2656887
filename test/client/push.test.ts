/**
 * The push consumer (`src/client/push.ts`) and the feed over it, against the local service over HTTP
 * and WebSocket on 127.0.0.1, on a frozen clock moved by the test (the service's publisher sends
 * each change once the clock passes it): a pushed state reaches the feed's live summary before any
 * poll and equals what REST answers; the server closing the socket makes the feed poll at once, and
 * the consumer resumes with its token with no message lost (each match's index continues by one);
 * after the grace period it subscribes afresh and the feed resyncs from REST; a service without push
 * (404), a refused secret and a closed port leave push off or down and the feed polling as before.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src/client/client.ts';
import { PushConsumer, readPushedSummary, summaryEnded } from '../../src/client/push.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { Clock } from '../../src/core/clock.ts';
import { createFeed, type Feed } from '../../src/feed/feed.ts';
import { POLL_INTERVAL_MS } from '../../src/feed/poll-band.ts';
import { PUSH_SAFETY_POLL_MS } from '../../src/feed/state.ts';
import type { LiveSummary } from '../../src/protocol/live-summary.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import { stateInstants } from '../../src/service/push/channels.ts';
import { PUSH_LIMITS } from '../../src/service/push/limits.ts';

const INSTANT = Date.parse('2026-11-18T15:00:00.000Z');

let service: RunningService;
let clock: Clock;
/** Added to real time on the service's transport clock (keep-alive and grace deadlines). */
let skew = 0;
const open: { feed?: Feed; push?: PushConsumer; client?: EsportsClient }[] = [];

beforeAll(async () => {
  clock = new Clock({ start: new Date(INSTANT), frozen: true });
  service = await startService({
    port: 0,
    seed: 42,
    clock,
    rate: 0,
    pushTransportNow: () => Date.now() + skew,
  });
});
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.feed?.stop();
    await o.push?.stop();
    await o.client?.close();
  }
  skew = 0;
  // Deleting the subscriptions forgets their subscribers: the publisher has nobody to publish to.
  for (const s of service.push.subscriptions.list(service.secret))
    service.push.subscriptions.delete(service.secret, s.id);
});
afterAll(() => service.close());

function consumer(options: { url?: string; secret?: string; baseMs?: number } = {}): PushConsumer {
  return new PushConsumer({
    url: options.url ?? `${service.url}/push`,
    secret: options.secret ?? service.secret,
    backoff: { baseMs: options.baseMs ?? 40, maxMs: options.baseMs ?? 40 },
    timeoutMs: 2000,
  });
}

/** A feed (a short window) over a client that caches nothing, with `push`, read once at `at`. */
async function feedAt(at: number, push?: PushConsumer): Promise<{ feed: Feed; client: EsportsClient }> {
  clock.set(new Date(at));
  service.push.hub.tick();
  const client = createClient({
    baseUrl: service.url,
    secret: service.secret,
    rate: { perSecond: 10_000, burst: 10_000 },
    ttl: { series: 0, matches: 0, live: 0, streams: 0, substages: 0, casters: 0 },
  });
  const feed = createFeed({
    client,
    clock,
    horizonMs: 3600_000,
    pastMs: 3600_000,
    ...(push ? { push, pushReadGapMs: 0 } : {}),
  });
  open.push({ feed, client, ...(push ? { push } : {}) });
  await feed.tick();
  return { feed, client };
}

/** A live match whose summary the feed holds, with its next state changes after `at`. */
function heldMatch(feed: Feed, at: number) {
  for (const { series } of feed.entries()) {
    if (series.lifecycle !== 'live') continue;
    const data = feed.liveData(series.id);
    if (!data?.summary || !data.summaryKey) continue;
    const [source, id] = data.summaryKey.split(':') as ['cv' | 'api', string];
    const matchId = Number(id);
    const plan = service.world.window(at).series.find((p) => p.id === series.id);
    const m = plan?.matches.find((x) => x.id === matchId);
    if (!plan || !m || m.end < at + 600_000) continue;
    const next = stateInstants(service.world, plan, m).filter((x) => x > at);
    if (next.length < 3) continue;
    return { seriesId: series.id, source, matchId, next, index: data.summary.latest_states_channel_index! };
  }
  throw new Error('no live match with a held summary at the test instant');
}

async function rest(source: 'cv' | 'api', matchId: number): Promise<LiveSummary> {
  const res = await fetch(`${service.url}/matches/${matchId}/live/${source}/summary`, {
    headers: { 'Service-Secret': service.secret },
  });
  return (await res.json()) as LiveSummary;
}

describe('push in the client and the feed', () => {
  it('delivers a pushed state to the feed before any poll, the same state REST answers', async () => {
    const push = consumer();
    const { feed } = await feedAt(INSTANT, push);
    await vi.waitFor(() => expect(push.status).toBe('up'));
    // The welcome of a fresh subscriber asks for a resync: let that REST read finish first.
    await vi.waitFor(() => expect(feed.stats.pushReads).toBeGreaterThanOrEqual(1));
    await new Promise((r) => setTimeout(r, 50));
    const target = heldMatch(feed, INSTANT);
    const readsBefore = feed.stats.reads;
    let readsAtChange: number | undefined;
    feed.onLiveChange(() => {
      if (feed.liveSummary(target.source, target.matchId)?.latest_states_channel_index === target.index + 1)
        readsAtChange ??= feed.stats.reads;
    });
    const at = target.next[0]!;
    clock.set(new Date(at));
    service.push.hub.tick();
    await vi.waitFor(() =>
      expect(feed.liveSummary(target.source, target.matchId)?.latest_states_channel_index).toBe(
        target.index + 1,
      ),
    );
    // No request was made for it: the push delivered it.
    expect(readsAtChange).toBe(readsBefore);
    expect(feed.stats.pushed).toBeGreaterThan(0);
    // Push is never a second truth: REST answers the same state (its timestamp read when asked).
    const fromRest = await rest(target.source, target.matchId);
    const pushed = feed.liveSummary(target.source, target.matchId)!;
    expect({ ...pushed, timestamp: '' }).toEqual({ ...fromRest, timestamp: '' });
    // While the socket is up, the live listing waits for the safety poll, not the 10 s band.
    expect(feed.pushStatus).toBe('up');
    const liveReadAt = feed.lastLiveReadAt!;
    clock.set(new Date(liveReadAt + POLL_INTERVAL_MS.live + 1000));
    await feed.tick();
    expect(feed.lastLiveReadAt).toBe(liveReadAt);
    clock.set(new Date(liveReadAt + PUSH_SAFETY_POLL_MS));
    await feed.tick();
    expect(feed.lastLiveReadAt).toBe(liveReadAt + PUSH_SAFETY_POLL_MS);
  });

  it('polls at once when the server closes the socket, then resumes with the token: no message lost', async () => {
    const push = consumer({ baseMs: 400 });
    const { feed } = await feedAt(INSTANT + 3600_000, push);
    const t0 = INSTANT + 3600_000;
    await vi.waitFor(() => expect(push.status).toBe('up'));
    await vi.waitFor(() => expect(feed.stats.pushReads).toBeGreaterThanOrEqual(1));
    const target = heldMatch(feed, t0);
    const delivered = push.stats.delivered;
    // One state change while connected.
    clock.set(new Date(target.next[0]!));
    service.push.hub.tick();
    await vi.waitFor(() =>
      expect(feed.liveSummary(target.source, target.matchId)?.latest_states_channel_index).toBe(
        target.index + 1,
      ),
    );
    const resumesBefore = push.stats.resumes;
    // The server closes it (keep-alive timeout, 4011, resumable) ...
    skew = PUSH_LIMITS.keepalive_timeout_ms + 1000;
    service.push.hub.sweep();
    // ... and changes are published while the client is away (held for the replay), at an instant
    // at least 10 s (simulated) after the last live read, so a fallback poll is due.
    const away = target.next.find(
      (x) => x > target.next[0]! && x >= feed.lastLiveReadAt! + POLL_INTERVAL_MS.live,
    )!;
    clock.set(new Date(away));
    expect(service.push.hub.tick()).toBeGreaterThan(0);
    await vi.waitFor(() => expect(push.status).not.toBe('up'));
    // Polling takes over at once: the live listing is read at the clock's now, without a tick.
    await vi.waitFor(() => expect(feed.lastLiveReadAt).toBe(away));
    // Push resumes with the token and replays what was missed: the held index is REST's, no gap.
    await vi.waitFor(() => expect(push.status).toBe('up'), { timeout: 3000 });
    expect(push.stats.resumes).toBe(resumesBefore + 1);
    expect(push.stats.gaps).toBe(0);
    const expected = (await rest(target.source, target.matchId)).latest_states_channel_index;
    expect(expected).toBeGreaterThan(target.index + 1);
    await vi.waitFor(() =>
      expect(feed.liveSummary(target.source, target.matchId)?.latest_states_channel_index).toBe(expected),
    );
    expect(push.stats.delivered).toBeGreaterThan(delivered);
  });

  it('subscribes afresh after the grace period (4012) and resyncs the feed from REST', async () => {
    const push = consumer({ baseMs: 600 });
    const { feed } = await feedAt(INSTANT + 2 * 3600_000, push);
    await vi.waitFor(() => expect(push.status).toBe('up'));
    await vi.waitFor(() => expect(feed.stats.pushReads).toBeGreaterThanOrEqual(1));
    const resyncs = push.stats.resyncs;
    const pushReads = feed.stats.pushReads;
    skew = PUSH_LIMITS.keepalive_timeout_ms + 1000;
    service.push.hub.sweep();
    await vi.waitFor(() => expect(push.status).not.toBe('up'));
    // The client stays away past the grace period: its token no longer resumes.
    skew += PUSH_LIMITS.reconnect_grace_ms + 1000;
    await vi.waitFor(() => expect(push.status).toBe('up'), { timeout: 5000 });
    expect(push.stats.resyncs).toBe(resyncs + 1);
    await vi.waitFor(() => expect(feed.stats.pushReads).toBeGreaterThan(pushReads));
  });

  it('turns push off when the service has none (404) and the feed polls every 10 s as before', async () => {
    const push = consumer({ url: `${service.url}/no-push-here` });
    const { feed } = await feedAt(INSTANT + 3 * 3600_000, push);
    await vi.waitFor(() => expect(push.status).toBe('off'));
    expect(feed.pushStatus).toBe('off');
    expect(push.stats.connects).toBe(0);
    const readAt = feed.lastLiveReadAt!;
    clock.set(new Date(readAt + POLL_INTERVAL_MS.live));
    await feed.tick();
    expect(feed.lastLiveReadAt).toBe(readAt + POLL_INTERVAL_MS.live);
  });

  it('turns push off on a refused secret, and keeps retrying (polling meanwhile) when nothing listens', async () => {
    const refused = consumer({ secret: 'not-the-secret' });
    const states: string[] = [];
    refused.start({ onSummary: () => undefined, onStatus: (s) => states.push(s), onResync: () => undefined });
    open.push({ push: refused });
    await vi.waitFor(() => expect(refused.status).toBe('off'));
    expect(states).toEqual(['connecting', 'off']);

    const closed = consumer({ url: 'http://127.0.0.1:9/v3/push', baseMs: 20 });
    const { feed } = await feedAt(INSTANT + 4 * 3600_000, closed);
    await vi.waitFor(() => expect(closed.stats.httpRequests).toBeGreaterThan(2));
    expect(closed.status).toBe('down');
    const readAt = feed.lastLiveReadAt!;
    clock.set(new Date(readAt + POLL_INTERVAL_MS.live));
    await feed.tick();
    expect(feed.lastLiveReadAt).toBe(readAt + POLL_INTERVAL_MS.live);
  });

  it('checks each payload: only a live summary with a match id and a whole index is taken', () => {
    const base = {
      game_kind: 'shooter',
      timestamp: '2026-11-18T15:00:00Z',
      match: { id: 7, phase: 'in-game', start: 'x' },
    };
    expect(readPushedSummary(base)?.matchId).toBe(7);
    expect(readPushedSummary({ ...base, latest_states_channel_index: 3 })?.matchId).toBe(7);
    expect(readPushedSummary(null)).toBeNull();
    expect(readPushedSummary([base])).toBeNull();
    expect(readPushedSummary({ ...base, timestamp: 5 })).toBeNull();
    expect(readPushedSummary({ ...base, match: { id: 'x' } })).toBeNull();
    expect(readPushedSummary({ ...base, match: { id: -1 } })).toBeNull();
    expect(readPushedSummary({ ...base, latest_states_channel_index: 1.5 })).toBeNull();
    expect(summaryEnded({ ...base, match: { ...base.match, phase: 'post-game' } } as never)).toBe(true);
    expect(summaryEnded(base as never)).toBe(false);
  });
});
