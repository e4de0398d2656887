/**
 * Public ports that outlast floods (`src/core/http-guard.ts`, `src/calendar/server.ts`), on
 * loopback: hundreds of idle sockets against the operations server with a small cap (the cap holds,
 * idle ones make room, /healthz answers, a second address keeps its own share, an idle socket is
 * closed by the server), and one calendar URL fetched over and over (no upstream request after the
 * first build, 429 with Retry-After past the per-token and per-address limits).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNameIndex } from '../../src/bot/names.ts';
import { openUserStore, type UserStore } from '../../src/bot/users.ts';
import { calendarRoute, startCalendarServer } from '../../src/calendar/server.ts';
import { createClient } from '../../src/client/client.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { Clock } from '../../src/core/clock.ts';
import { OpsMetrics } from '../../src/ops/metrics.ts';
import { OpsServer } from '../../src/ops/server.ts';
import { type RunningService, startService } from '../../src/service/index.ts';

const logger = pino({ level: 'silent' });

/** Opens `count` TCP connections from `localAddress` that send nothing; resolves once each connected or was closed. */
async function idleSockets(port: number, count: number, localAddress = '127.0.0.1'): Promise<Socket[]> {
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Socket>((resolve) => {
          const socket = connect({ port, host: '127.0.0.1', localAddress });
          socket.on('error', () => undefined);
          // Read (and drop) what comes, so a close by the server is seen here.
          socket.resume();
          socket.once('connect', () => resolve(socket));
          socket.once('close', () => resolve(socket));
        }),
    ),
  );
}

describe('the operations port under a flood of idle connections', () => {
  let ops: OpsServer;
  let metrics: OpsMetrics;
  const opened: Socket[] = [];
  beforeAll(async () => {
    metrics = new OpsMetrics();
    ops = await OpsServer.start({
      host: '127.0.0.1',
      port: 0,
      metrics,
      logger,
      limits: { maxConnections: 50, perAddress: 30, headersTimeoutMs: 1_000, idleMs: 2_000 },
    });
  });
  afterAll(async () => {
    for (const socket of opened) socket.destroy();
    await ops?.close();
    metrics?.close();
  });

  it('holds its cap per server and per address, makes room from idle sockets, and /healthz answers', async () => {
    const port = Number(new URL(ops.url).port);
    opened.push(...(await idleSockets(port, 300)));
    // Wait until the server has seen every connection (counted, or evicted to make room).
    await vi.waitFor(() => {
      const s = ops.connections();
      expect(s.open + s.evicted + s.refused).toBeGreaterThanOrEqual(300);
    });
    const flooded = ops.connections();
    expect(flooded.peak).toBeLessThanOrEqual(30);
    expect(flooded.open).toBeLessThanOrEqual(30);
    expect(flooded.evicted).toBeGreaterThanOrEqual(270);
    // The sockets the server closed are closed on this side too: at most 30 still open.
    await vi.waitFor(() =>
      expect(opened.filter((s) => !s.destroyed && s.readyState === 'open').length).toBeLessThanOrEqual(30),
    );

    // A probe through the flood still answers (an idle socket made room for it).
    const health = await fetch(`${ops.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('ok\n');

    // Another address keeps its own share: 15 sockets from 127.0.0.2 all stay, the total stays <= 50.
    const other = await idleSockets(port, 15, '127.0.0.2');
    opened.push(...other);
    await vi.waitFor(() => expect(ops.connections().open).toBeGreaterThanOrEqual(15));
    expect(other.every((s) => !s.destroyed)).toBe(true);
    expect(ops.connections().peak).toBeLessThanOrEqual(50);
  });

  it('closes a socket that never sends a request', async () => {
    const port = Number(new URL(ops.url).port);
    const [socket] = await idleSockets(port, 1, '127.0.0.3');
    opened.push(socket!);
    const closed = new Promise<void>((resolve) => socket!.once('close', () => resolve()));
    await closed;
    expect(socket!.destroyed).toBe(true);
  });
});

describe('one calendar URL fetched in a loop', () => {
  const FROM = new Date('2026-03-18T15:20:00.000Z');
  let dir: string;
  let service: RunningService;
  let client: EsportsClient;
  let users: UserStore;
  let clock: Clock;
  const servers: { url: string; close(): Promise<void> }[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'matchday-flood-'));
    clock = new Clock({ start: FROM, frozen: true });
    service = await startService({ port: 0, seed: 42, clock, rate: 0 });
    client = createClient({
      baseUrl: service.url,
      secret: service.secret,
      rate: { perSecond: 10_000, burst: 10_000 },
    });
    const path = join(dir, 'users.sqlite');
    users = await openUserStore({ kind: 'sqlite', url: `sqlite://${path}`, path }, { logger });
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await users?.close();
    await client?.close();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function calendarServer(limits: Parameters<typeof calendarRoute>[0]['limits']) {
    const names = createNameIndex({ client, clock });
    const server = await startCalendarServer(calendarRoute({ users, client, names, clock, logger, limits }), {
      host: '127.0.0.1',
      port: 0,
      logger,
    });
    servers.push(server);
    return server;
  }

  async function follower(user: string, teamIndex: number): Promise<string> {
    const team = service.world.catalog.teams[teamIndex]!;
    await users.update(user, (p) => ({ ...p, follows: [{ team: team.id, noQualifiers: false }] }));
    return users.calendarToken(user);
  }

  it('is made once: 20 clients at once and 40 more requests cost no upstream request after the first build', async () => {
    const server = await calendarServer({ tokenBurst: 1_000, addressBurst: 1_000 });
    const token = await follower('discord:loop', 0);
    const url = `${server.url}/calendar/${token}.ics`;
    const first = await fetch(url);
    expect(first.status).toBe(200);
    const text = await first.text();
    expect(text).toContain('BEGIN:VCALENDAR');
    const upstream = service.requests;
    const stats = client.stats().upstreamTotal;
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(url).then((r) => r.text())));
    for (let i = 0; i < 40; i++) answers.push(await (await fetch(url)).text());
    expect(answers.every((a) => a === text)).toBe(true);
    expect(service.requests).toBe(upstream);
    expect(client.stats().upstreamTotal).toBe(stats);
  });

  it('is made again at once when its owner changes what it shows, and after the cache time only if its series changed', async () => {
    const server = await calendarServer({ tokenBurst: 1_000, addressBurst: 1_000, cacheMs: 60_000 });
    const token = await follower('discord:changes', 1);
    const url = `${server.url}/calendar/${token}.ics`;
    const before = await (await fetch(url)).text();
    // A new follow: another calendar at once, without waiting for the cache time.
    await follower('discord:changes', 2);
    const after = await (await fetch(url)).text();
    expect(after).not.toBe(before);
    const team = service.world.catalog.teams[2]!.name;
    expect(after.replaceAll('\r\n ', '')).toContain(team);
    // Past the cache time with the same series: the same text, its DTSTAMP included (not made again).
    clock.set(new Date(clock.nowMs() + 61_000));
    expect(await (await fetch(url)).text()).toBe(after);
    // A day later the series have moved on: made again.
    clock.set(new Date(clock.nowMs() + 24 * 3600_000));
    expect(await (await fetch(url)).text()).not.toBe(after);
  });

  it('answers 429 with Retry-After past the per-token limit, and past the per-address limit before looking a token up', async () => {
    const server = await calendarServer({
      tokenBurst: 3,
      tokenRefillMs: 10_000,
      addressBurst: 10,
      addressRefillMs: 2_000,
    });
    const token = await follower('discord:limited', 3);
    const url = `${server.url}/calendar/${token}.ics`;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await fetch(url)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await fetch(url);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('10');
    // Unknown tokens from the same address: 404 until the address's bucket (10, 5 of them spent
    // above) is empty, then 429 without looking the token up.
    const guesses: number[] = [];
    for (let i = 0; i < 7; i++) guesses.push((await fetch(`${server.url}/calendar/guess${i}.ics`)).status);
    expect(guesses).toEqual([404, 404, 404, 404, 404, 429, 429]);
    // Behind a proxy on this host, each forwarded address has a bucket of its own (the proxy's
    // address is spent); the entries a client wrote before the proxy's own do not count.
    const viaProxy = (forwarded: string) =>
      fetch(`${server.url}/calendar/guess.ics`, { headers: { 'x-forwarded-for': forwarded } }).then(
        (r) => r.status,
      );
    expect(await viaProxy('203.0.113.7')).toBe(404);
    const spoofed: number[] = [];
    for (let i = 0; i < 11; i++) spoofed.push(await viaProxy(`198.51.100.${i}, 203.0.113.8`));
    expect(spoofed.slice(0, 10)).toEqual(Array(10).fill(404));
    expect(spoofed[10]).toBe(429);
    // The app's clock moves on: the buckets fill again.
    clock.set(new Date(clock.nowMs() + 20_000));
    expect((await fetch(url)).status).toBe(200);
  });
});
