// biome-ignore-all lint/suspicious/noExplicitAny: JSON bodies and messages from the service under test
/**
 * Push in the local service (`docs/push-protocol.md`) with real WebSocket clients on loopback and
 * the injected clock: subscriptions over HTTP, the welcome message, envelopes whose payload is the
 * REST live summary at that instant with a gapless per-match index, filters, resume with the
 * reconnect token (nothing lost) and after the grace period (4012), keep-alive, and the limits.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { Clock } from '../../src/core/clock.ts';
import type { RunningService } from '../../src/service/index.ts';
import { CLOSE, PUSH_LIMITS } from '../../src/service/push/limits.ts';
import type { MatchPlan, SeriesPlan } from '../../src/service/schedule.ts';
import { get, INSTANT, start } from './helpers.ts';

interface Client {
  ws: WebSocket;
  messages: any[];
  closed: Promise<{ code: number; reason: string }>;
}

function connect(service: RunningService, query: string, secret: string | null = service.secret): Client {
  const ws = new WebSocket(`${service.push.url}?${query}`, {
    headers: secret === null ? {} : { 'Service-Secret': secret },
  });
  const messages: any[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data))));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return { ws, messages, closed };
}

async function call(
  service: RunningService,
  method: string,
  path: string,
  body?: unknown,
  secret = service.secret,
) {
  const res = await fetch(service.url.replace(/\/v3$/, '') + path, {
    method,
    headers: { 'Service-Secret': secret, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

const data = (c: Client) => c.messages.filter((m) => m.type === undefined);

describe('push (service)', () => {
  let service: RunningService;
  let clock: Clock;
  let plan: SeriesPlan;
  let match: MatchPlan;
  let channel: string;
  const clients: Client[] = [];
  const open = (query: string, secret?: string | null) => {
    const c = connect(service, query, secret);
    clients.push(c);
    return c;
  };
  const subscribe = async (filters: unknown[], name = 'cards') =>
    (await call(service, 'POST', '/v3/push/subscriptions', { name, filters })).body.id as string;
  const welcomed = async (c: Client) => {
    await vi.waitFor(() => expect(c.messages[0]?.type).toBe('welcome'));
    return c.messages[0];
  };

  beforeAll(async () => {
    clock = new Clock({ start: INSTANT, frozen: true });
    service = await start({ clock, pushTransportNow: () => clock.nowMs() });
    const t = INSTANT.getTime();
    const series = service.world.window(t).series;
    const playing = (p: SeriesPlan) =>
      p.kind === 'moba' &&
      p.forfeit < 0 &&
      p.deletedAt === null &&
      p.matches.some((m) => m.start < t && m.end > t + 600_000 && m.winner >= 0);
    // A MOBA match live for the next 10 minutes, of a game with another such match (a filter on the
    // game's channel alone then receives more than one match's messages).
    plan = series.find((p) => playing(p) && series.some((q) => q !== p && q.game === p.game && playing(q)))!;
    match = plan.matches.find((m) => m.start < t && m.end > t + 600_000)!;
    channel = `${service.world.catalog.game(plan.game)!.game.abbreviation.toLowerCase()}_live_api_states`;
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.ws.terminate();
    for (const s of (await call(service, 'GET', '/v3/push/subscriptions')).body)
      await call(service, 'DELETE', `/v3/push/subscriptions/${s.id}`);
    clock.set(INSTANT);
    service.push.hub.tick();
  });
  afterAll(() => service.close());

  it('registers, lists, updates and deletes subscriptions over HTTP with the secret, within the published limit', async () => {
    const limits = await call(service, 'GET', '/v3/push/limits');
    expect(limits.body).toMatchObject({
      subscriptions_per_secret: PUSH_LIMITS.subscriptions_per_secret,
      websocket_path: '/v3/push/ws',
    });
    const channels = (await call(service, 'GET', '/v3/push/channels')).body.map((c: any) => c.name);
    expect(channels).toContain(channel);
    expect(channels).toContain(channel.replace('_api_', '_cv_'));
    const created = await call(service, 'POST', '/v3/push/subscriptions', {
      name: 'one',
      filters: [{ channel, matches: [match.id] }],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'one', filters: [{ channel, matches: [match.id] }] });
    const id = created.body.id;
    expect((await call(service, 'GET', '/v3/push/subscriptions')).body.map((s: any) => s.id)).toEqual([id]);
    const put = await call(service, 'PUT', `/v3/push/subscriptions/${id}`, {
      name: 'two',
      filters: [{ channel, games: [plan.game] }],
    });
    expect(put.body).toMatchObject({ id, name: 'two', filters: [{ channel, games: [plan.game] }] });
    expect((await call(service, 'GET', `/v3/push/subscriptions/${id}`)).body.name).toBe('two');
    expect((await call(service, 'DELETE', `/v3/push/subscriptions/${id}`)).status).toBe(204);
    expect((await call(service, 'GET', `/v3/push/subscriptions/${id}`)).status).toBe(404);

    const unauthorized = await call(service, 'GET', '/v3/push/subscriptions', undefined, 'wrong');
    expect(unauthorized).toEqual({ status: 401, body: { msg: 'Invalid secret.' } });
    const badChannel = await call(service, 'POST', '/v3/push/subscriptions', {
      name: 'x',
      filters: [{ channel: 'nope' }],
    });
    expect(badChannel.status).toBe(400);
    expect(badChannel.body.msg).toMatch(/^filters\[0\]\.channel "nope" is not a channel/);
    const badIds = await call(service, 'POST', '/v3/push/subscriptions', {
      name: 'x',
      filters: [{ channel, matches: ['a'] }],
    });
    expect(badIds.body.msg).toBe('filters[0].matches must be a list of whole positive ids, such as [1, 2].');
    for (let i = 0; i < PUSH_LIMITS.subscriptions_per_secret; i++) await subscribe([{ channel }], `s${i}`);
    const over = await call(service, 'POST', '/v3/push/subscriptions', {
      name: 'over',
      filters: [{ channel }],
    });
    expect(over.status).toBe(409);
    expect(over.body.msg).toMatch(/the most allowed \(10\): delete one first/);
  });

  it('welcomes a subscriber, then pushes each state change as the REST live summary of that instant', async () => {
    const id = await subscribe([{ channel, matches: [match.id] }]);
    const c = open(`subscription=${id}`);
    const hello = await welcomed(c);
    expect(hello).toMatchObject({ subscription: id, resumed: false });
    expect(hello.subscriber_id).toMatch(/^[0-9a-f]{16}$/);
    expect(typeof hello.reconnect_token).toBe('string');
    const before = (await get(service, `/matches/${match.id}/live/api/summary`)).body
      .latest_states_channel_index;
    clock.advance(5 * 60_000);
    service.push.hub.tick();
    // As many messages as the match's state changed in those 5 minutes (a MOBA: at least one a minute).
    const after = (await get(service, `/matches/${match.id}/live/api/summary`)).body
      .latest_states_channel_index;
    expect(after - before).toBeGreaterThanOrEqual(5);
    await vi.waitFor(() => expect(data(c).length).toBe(after - before));
    const messages = data(c);
    for (const m of messages) {
      expect(Object.keys(m).sort()).toEqual(['channel', 'created', 'payload', 'uuid']);
      expect(m.channel).toBe(channel);
      expect(m.payload.match.id).toBe(match.id);
    }
    // Gapless per match, from the index REST gave before.
    expect(messages.map((m) => m.payload.latest_states_channel_index)).toEqual(
      messages.map((_, i) => before + 1 + i),
    );
    // The REST live summary mirrors the latest message: at its instant it is the payload itself.
    const last = messages.at(-1);
    const rest = (await get(service, `/matches/${match.id}/live/api/summary`)).body;
    expect(rest.latest_states_channel_index).toBe(last.payload.latest_states_channel_index);
    clock.set(new Date(last.created));
    expect((await get(service, `/matches/${match.id}/live/api/summary`)).body).toEqual(last.payload);
    // A filter on another match's id receives none of these.
    expect(messages.every((m) => m.payload.match.id === match.id)).toBe(true);
  });

  it('resumes with the reconnect token within the grace period and replays what was missed, nothing lost', async () => {
    const id = await subscribe([{ channel, series: [plan.id] }]);
    const first = open(`subscription=${id}`);
    const hello = await welcomed(first);
    clock.advance(2 * 60_000);
    service.push.hub.tick();
    await vi.waitFor(() => expect(data(first).length).toBeGreaterThan(0));
    const seen = data(first);
    first.ws.terminate();
    await first.closed;
    // Within the grace period (transport time is the injected clock here); a MOBA's state changes every minute.
    clock.advance(PUSH_LIMITS.reconnect_grace_ms - 10_000);
    service.push.hub.tick();
    const second = open(`resume=${hello.reconnect_token}&last_uuid=${seen.at(-1).uuid}`);
    const again = await welcomed(second);
    expect(again).toMatchObject({ subscriber_id: hello.subscriber_id, resumed: true });
    expect(again.replayed).toBeGreaterThan(0);
    expect(again.reconnect_token).not.toBe(hello.reconnect_token);
    await vi.waitFor(() => expect(data(second).length).toBe(again.replayed));
    const all = [...seen, ...data(second)].filter((m) => m.payload.match.id === match.id);
    const indexes = all.map((m) => m.payload.latest_states_channel_index);
    expect(indexes).toEqual(indexes.map((_, i) => indexes[0] + i));
    // The old token no longer resumes.
    const stale = open(`resume=${hello.reconnect_token}`);
    expect((await stale.closed).code).toBe(CLOSE.RESYNC);
  });

  it('delivers by filter: one match only, or every match of a channel, on the cv channel as its REST summary', async () => {
    const cv = channel.replace('_api_', '_cv_');
    const one = open(`subscription=${await subscribe([{ channel: cv, matches: [match.id] }], 'one')}`);
    const all = open(`subscription=${await subscribe([{ channel: cv }], 'all')}`);
    await welcomed(one);
    await welcomed(all);
    clock.advance(4 * 60_000);
    service.push.hub.tick();
    await vi.waitFor(() => expect(data(one).length).toBeGreaterThanOrEqual(4));
    await vi.waitFor(() => expect(data(all).length).toBeGreaterThan(data(one).length));
    expect(new Set(data(one).map((m) => m.payload.match.id))).toEqual(new Set([match.id]));
    expect(new Set(data(all).map((m) => m.payload.match.id)).size).toBeGreaterThan(1);
    // The same message (same uuid) reaches both subscribers.
    const mine = () => data(all).filter((m) => m.payload.match.id === match.id);
    await vi.waitFor(() => expect(mine().map((m) => m.uuid)).toEqual(data(one).map((m) => m.uuid)));
    const last = data(one).at(-1);
    expect(last.channel).toBe(cv);
    clock.set(new Date(last.created));
    expect((await get(service, `/matches/${match.id}/live/cv/summary`)).body).toEqual(last.payload);
  });

  it('refuses a resume after the grace period with 4012: the client resyncs from REST', async () => {
    const id = await subscribe([{ channel }]);
    const c = open(`subscription=${id}`);
    const hello = await welcomed(c);
    c.ws.terminate();
    await c.closed;
    await vi.waitFor(() => expect(service.push.hub.connected()).toBe(0));
    clock.advance(PUSH_LIMITS.reconnect_grace_ms + 1);
    service.push.hub.sweep();
    const unknown = open(`resume=${hello.reconnect_token}&last_uuid=not-a-message`);
    expect((await unknown.closed).code).toBe(CLOSE.RESYNC);
    const late = open(`resume=${hello.reconnect_token}`);
    const closed = await late.closed;
    expect(closed.code).toBe(CLOSE.RESYNC);
    expect(closed.reason).toMatch(/resync|REST/);
  });

  it('keeps alive both ways: answers a ping, pings, and closes a silent subscriber with 4011', async () => {
    const id = await subscribe([{ channel }]);
    const c = open(`subscription=${id}`);
    await welcomed(c);
    c.ws.send(JSON.stringify({ type: 'ping' }));
    await vi.waitFor(() => expect(c.messages.some((m) => m.type === 'pong')).toBe(true));
    service.push.hub.sweep();
    await vi.waitFor(() => expect(c.messages.some((m) => m.type === 'ping')).toBe(true));
    clock.advance(PUSH_LIMITS.keepalive_timeout_ms + 1);
    service.push.hub.sweep();
    expect((await c.closed).code).toBe(CLOSE.KEEPALIVE_TIMEOUT);
    const bad = open(`subscription=${id}`);
    await welcomed(bad);
    bad.ws.send('hello');
    expect((await bad.closed).code).toBe(CLOSE.BAD_MESSAGE);
  });

  it('closes with the documented codes: secret, request, unknown or deleted subscription, too many subscribers', async () => {
    const id = await subscribe([{ channel }]);
    expect((await open(`subscription=${id}`, 'wrong').closed).code).toBe(CLOSE.UNAUTHORIZED);
    expect((await open(`subscription=${id}`, null).closed).code).toBe(CLOSE.UNAUTHORIZED);
    expect((await open('').closed).code).toBe(CLOSE.BAD_REQUEST);
    expect((await open('subscription=abc').closed).code).toBe(CLOSE.UNKNOWN_SUBSCRIPTION);
    const held: Client[] = [];
    for (let i = 0; i < PUSH_LIMITS.concurrent_subscribers; i++) held.push(open(`subscription=${id}`));
    for (const c of held) await welcomed(c);
    const extra = open(`subscription=${id}`);
    const refused = await extra.closed;
    expect(refused.code).toBe(CLOSE.TOO_MANY_SUBSCRIBERS);
    expect(refused.reason).toBe(
      `At most ${PUSH_LIMITS.concurrent_subscribers} subscribers per secret are open at once.`,
    );
    await call(service, 'DELETE', `/v3/push/subscriptions/${id}`);
    for (const c of held) expect((await c.closed).code).toBe(CLOSE.UNKNOWN_SUBSCRIPTION);
  });
});
