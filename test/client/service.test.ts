/**
 * The client against the real local service over HTTP on 127.0.0.1, using the
 * service's fault injection. Faults are switched by request count (a getter on the service's
 * mutable `faults`), so each scenario is deterministic and no assertion depends on timing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ClientOptions, createClient } from '../../src/client/client.ts';
import {
  GoneError,
  NotFoundError,
  RateLimitedError,
  TimeoutError,
  UnauthorizedError,
  UnavailableError,
} from '../../src/client/errors.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { UnsafeFilterTextError } from '../../src/protocol/filter.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import { captureLogger } from './helpers.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function service(options: Parameters<typeof startService>[0] = {}): Promise<RunningService> {
  const s = await startService({ port: 0, seed: 11, secret: 'svc-secret-7c1f0b', ...options });
  cleanups.push(() => s.close());
  return s;
}

function clientFor(s: RunningService, extra: Partial<ClientOptions> = {}): EsportsClient {
  const c = createClient({
    baseUrl: s.url,
    secret: s.secret,
    rate: { perSecond: 1000, burst: 1000 },
    retry: { baseMs: 5, capMs: 20 },
    ...extra,
  });
  cleanups.push(() => c.close());
  return c;
}

/** Makes one fault depend on how many requests the service has seen (inclusive upper bound). */
function faultUntil<K extends 'errorRate' | 'malformedRate' | 'dropRate' | 'rateLimitStorm'>(
  s: RunningService,
  key: K,
  on: RunningService['faults'][K],
  off: RunningService['faults'][K],
  lastFaulty: number,
): void {
  Object.defineProperty(s.faults, key, {
    configurable: true,
    get: () => (s.requests <= lastFaulty ? on : off),
  });
}

describe('client against the local service', () => {
  let shared: RunningService;
  let c: EsportsClient;
  beforeAll(async () => {
    shared = await startService({ port: 0, seed: 5, rate: 0 });
    c = createClient({
      baseUrl: shared.url,
      secret: shared.secret,
      rate: { perSecond: 10_000, burst: 10_000 },
    });
  });
  afterAll(async () => {
    await c.close();
    await shared.close();
  });

  it('reads every resource the v3 spec offers', async () => {
    const games = await c.games.list();
    expect(games.length).toBeGreaterThan(0);
    const game = games[0]!;
    expect((await c.games.get(game.id)).id).toBe(game.id);
    expect((await c.games.getMany([game.id]))[0]?.id).toBe(game.id);
    const maps = await c.games.maps(game.id);
    expect(maps.every((m) => m.game.id === game.id)).toBe(true);
    expect(Array.isArray(await c.games.mappools(game.id))).toBe(true);
    expect(Array.isArray(await c.games.races(game.id))).toBe(true);
    expect(Array.isArray(await c.games.roles(game.id))).toBe(true);
    expect(Array.isArray(await c.games.releases(game.id))).toBe(true);

    const allMaps = await c.maps.list({ take: 5 });
    expect(allMaps.length).toBeGreaterThan(0);
    expect((await c.maps.get(allMaps[0]!.id)).id).toBe(allMaps[0]!.id);
    const layouts = await c.mapLayouts.list({ take: 5 });
    if (layouts[0]) expect((await c.mapLayouts.get(layouts[0].id)).id).toBe(layouts[0].id);

    const series = await c.series.list({
      filter: [['game.id', '=', game.id]],
      order: 'start-desc',
      take: 20,
    });
    expect(series.length).toBeGreaterThan(0);
    const one = series.find((s) => s.matches.length > 0) ?? series[0]!;
    expect((await c.series.get(one.id)).id).toBe(one.id);
    expect(Array.isArray(await c.series.casters(one.id))).toBe(true);
    const matches = await c.series.matches(one.id);
    expect(matches.every((m) => m.series.id === one.id)).toBe(true);
    const seriesRosters = await c.series.rosters(one.id);
    expect(seriesRosters.map((r) => r.id).sort()).toEqual(one.participants.map((p) => p.roster.id).sort());
    expect(Array.isArray(await c.series.scoring(one.id))).toBe(true);
    expect(Array.isArray(await c.series.draft(one.id))).toBe(true);

    const someMatches = await c.matches.list({ take: 10 });
    const match = someMatches[0]!;
    expect((await c.matches.get(match.id)).id).toBe(match.id);
    expect(Array.isArray(await c.matches.rosters(match.id))).toBe(true);
    const liveMatch = (await c.matches.list({ filter: [['lifecycle', '=', 'live']], take: 1 }))[0];
    if (liveMatch) {
      expect((await c.matches.liveCv(liveMatch.id)).match.id).toBe(liveMatch.id);
      expect((await c.matches.liveApi(liveMatch.id)).match.id).toBe(liveMatch.id);
    }
    const upcomingMatch = (await c.matches.list({ filter: [['lifecycle', '=', 'upcoming']], take: 1 }))[0];
    if (upcomingMatch)
      await expect(c.matches.liveApi(upcomingMatch.id)).rejects.toBeInstanceOf(NotFoundError);

    const teams = await c.teams.list({ take: 5 });
    const team = teams[0]!;
    expect((await c.teams.get(team.id)).name).toBe(team.name);
    expect(Array.isArray(await c.teams.standingRosters(team.id))).toBe(true);
    const rosters = await c.rosters.list({ take: 5 });
    expect((await c.rosters.get(rosters[0]!.id)).id).toBe(rosters[0]!.id);
    expect(Array.isArray(await c.rosters.series(rosters[0]!.id, { take: 5 }))).toBe(true);
    const players = await c.players.list({ take: 5 });
    expect((await c.players.get(players[0]!.id)).id).toBe(players[0]!.id);
    expect(Array.isArray(await c.players.standingRosters(players[0]!.id))).toBe(true);

    const tournaments = await c.tournaments.list({ take: 5 });
    const tournament = tournaments[0]!;
    expect((await c.tournaments.get(tournament.id)).id).toBe(tournament.id);
    const stages = await c.tournaments.stages(tournament.id);
    expect(stages.every((s) => s.tournament.id === tournament.id)).toBe(true);
    expect(
      (await c.tournaments.substages(tournament.id)).every((s) => s.tournament.id === tournament.id),
    ).toBe(true);
    expect(
      (await c.tournaments.series(tournament.id, { take: 5 })).every(
        (s) => s.tournament.id === tournament.id,
      ),
    ).toBe(true);
    expect(Array.isArray(await c.tournaments.casters(tournament.id))).toBe(true);
    expect(Array.isArray((await c.tournaments.participants(tournament.id)).confirmed_participants)).toBe(
      true,
    );
    const stage = (await c.stages.list({ take: 5 }))[0]!;
    expect((await c.stages.get(stage.id)).id).toBe(stage.id);
    expect((await c.stages.substages(stage.id)).every((s) => s.stage.id === stage.id)).toBe(true);
    const substage = (await c.substages.list({ take: 5 }))[0]!;
    expect((await c.substages.get(substage.id)).id).toBe(substage.id);
    expect(
      (await c.substages.series(substage.id, { take: 5 })).every((s) => s.substage.id === substage.id),
    ).toBe(true);
    expect(Array.isArray(await c.substages.rosters(substage.id))).toBe(true);

    const casters = await c.casters.list({ take: 5 });
    expect((await c.casters.get(casters[0]!.id)).id).toBe(casters[0]!.id);
    expect(Array.isArray(await c.casters.streams(casters[0]!.id))).toBe(true);
    const orgs = await c.organisations.list({ take: 5 });
    expect((await c.organisations.get(orgs[0]!.id)).id).toBe(orgs[0]!.id);
    const lineups = await c.lineups.list({ take: 5 });
    const lineup = lineups[0]!;
    expect((await c.lineups.get(lineup.id)).id).toBe(lineup.id);
    expect((await c.lineups.rosters(lineup.id)).every((r) => r.line_up.id === lineup.id)).toBe(true);
    expect(Array.isArray(await c.lineups.series(lineup.id, { take: 5 }))).toBe(true);

    const countries = await c.countries.list({ take: 5 });
    const country = countries[0]!;
    expect((await c.countries.get(country.id)).id).toBe(country.id);
    const region = await c.countries.region(country.id);
    expect(Array.isArray(await c.regions.countries(region.id))).toBe(true);
    const assets = await c.assets.list({ take: 5 });
    expect((await c.assets.get(assets[0]!.id)).id).toBe(assets[0]!.id);
    const images = assets.flatMap((a) => a.images);
    if (images[0]) expect((await c.images.get(images[0].id)).id).toBe(images[0].id);
    const broadcasters = await c.broadcasters.list({ take: 5 });
    if (broadcasters[0]) expect((await c.broadcasters.get(broadcasters[0].id)).id).toBe(broadcasters[0].id);
    const platforms = await c.platforms.list();
    expect((await c.platforms.get(platforms[0]!.id)).id).toBe(platforms[0]!.id);
    expect((await c.languages.list()).length).toBeGreaterThan(0);
    expect(Array.isArray(await c.incidents.list({ take: 5 }))).toBe(true);
    expect((await c.socialMediaPlatforms.list()).length).toBeGreaterThan(0);
    const standing = team.standing_roster;
    if (standing) expect((await c.standingRosters.get(standing.id)).id).toBe(standing.id);
    const external = await c.idSpaces.series(1, { take: 5 });
    expect(external.every((s) => 'external_id' in s)).toBe(true);
  });

  it('pages across pages exactly like skip/take listings', async () => {
    const before = shared.requests;
    const walked: number[] = [];
    for await (const team of c.teams.paginate({ order: 'id-asc' }, { limit: 120, priority: 'background' }))
      walked.push(team.id);
    expect(walked).toHaveLength(120);
    expect(new Set(walked).size).toBe(120);
    expect(shared.requests - before).toBe(3);
    const page3 = await c.teams.list({ order: 'id-asc', skip: 100, take: 20 });
    expect(walked.slice(100)).toEqual(page3.map((t) => t.id));
  });

  it('getMany batches ids in chunks of 50 and keeps the asked order', async () => {
    const teams: number[] = [];
    for await (const team of c.teams.paginate({ order: 'id-desc' }, { limit: 60 })) teams.push(team.id);
    // a second client with an empty cache: the listing above already cached these teams one by one
    const cold = createClient({
      baseUrl: shared.url,
      secret: shared.secret,
      rate: { perSecond: 10_000, burst: 10_000 },
    });
    try {
      const before = shared.requests;
      expect(await cold.players.getMany([])).toEqual([]);
      const many = await cold.teams.getMany(teams);
      expect(many.map((t) => t.id)).toEqual(teams);
      expect(shared.requests - before).toBe(2);
      // the records are now cached one by one: a get or a smaller getMany costs nothing
      await cold.teams.get(teams[7]!);
      await cold.teams.getMany(teams.slice(10, 30));
      expect(shared.requests - before).toBe(2);
    } finally {
      await cold.close();
    }
  });

  it('refuses filter injection attempts before any request', async () => {
    const before = shared.requests;
    for (const text of ['1,2', 'x},id<={1', '*', 'abc\u0000', '\u001b[31m', 'z'.repeat(1000)]) {
      await expect(
        c.teams.list({ filter: [['name', '~=', text]] }),
        JSON.stringify(text),
      ).rejects.toBeInstanceOf(UnsafeFilterTextError);
    }
    await expect(c.teams.list({ filter: [['id', '=', '1,2' as never]] })).rejects.toBeInstanceOf(
      UnsafeFilterTextError,
    );
    expect(shared.requests).toBe(before);
    // a harmless search reaches the service as one condition and works
    const name = (await c.teams.list({ take: 1 }))[0]!.name;
    const hits = await c.teams.list({ filter: [['name', '~=', name.slice(0, 4)]] });
    expect(hits.some((t) => t.name === name)).toBe(true);
  });

  it('makes one upstream request for 100 concurrent identical cold reads', async () => {
    shared.faults.latencyMs = 20;
    try {
      const before = shared.requests;
      const all = await Promise.all(
        Array.from({ length: 100 }, () => c.series.list({ order: 'id-asc', take: 7 })),
      );
      expect(shared.requests - before).toBe(1);
      expect(new Set(all.map((a) => JSON.stringify(a))).size).toBe(1);
    } finally {
      shared.faults.latencyMs = 0;
    }
  });
});

describe('client resilience against the local service', () => {
  it('waits out a 429 storm as the headers say, then succeeds', async () => {
    const s = await service({ rate: 1000, burst: 1000 });
    const c = clientFor(s);
    faultUntil(s, 'rateLimitStorm', true, false, 1);
    const games = await c.games.list();
    expect(games.length).toBeGreaterThan(0);
    expect(s.requests).toBe(2);
    expect(c.stats().rateLimited).toBe(1);
    expect(c.stats().upstream.games).toEqual({ '429': 1, '200': 1 });
  });

  it('retries 5xx answers, then succeeds', async () => {
    const s = await service({ rate: 0 });
    const c = clientFor(s);
    faultUntil(s, 'errorRate', 1, 0, 2);
    expect((await c.games.list()).length).toBeGreaterThan(0);
    expect(s.requests).toBe(3);
    expect(c.stats().retries).toBe(2);
  });

  it('retries a truncated JSON answer and a dropped connection', async () => {
    const s = await service({ rate: 0 });
    const c = clientFor(s);
    faultUntil(s, 'malformedRate', 1, 0, 1);
    expect((await c.games.list()).length).toBeGreaterThan(0);
    expect(s.requests).toBe(2);
    faultUntil(s, 'dropRate', 1, 0, 3);
    expect((await c.teams.list({ take: 3 })).length).toBe(3);
    expect(s.requests).toBe(4);
    expect(c.stats().upstream.teams).toMatchObject({ network: 1, '200': 1 });
  });

  it('serves a cached entry, marked stale, when the service fails for good', async () => {
    const logger = captureLogger();
    const s = await service({ rate: 0 });
    const c = clientFor(s, { ttl: { games: 1 }, revalidateFactor: 0, logger });
    const fresh = await c.games.list();
    await new Promise((r) => setTimeout(r, 10));
    s.faults.errorRate = 1;
    const view = c.forCaller({ priority: 'interactive' });
    const stale = await view.games.list();
    expect(stale).toEqual(fresh);
    expect(view.servedStale).toBe(true);
    expect(c.forCaller({ priority: 'interactive' }).servedStale).toBe(false);
    // nothing cached for this one: the failure reaches the caller as a typed error
    await expect(view.teams.list({ take: 2 })).rejects.toBeInstanceOf(UnavailableError);
    expect(JSON.stringify(logger.lines)).not.toContain(s.secret);
  });

  it('fails at the deadline when the service is slower than the caller can wait', async () => {
    const s = await service({ rate: 0, faults: { latencyMs: 300 } });
    const c = clientFor(s);
    await expect(c.games.list(undefined, { deadlineMs: 100 })).rejects.toBeInstanceOf(TimeoutError);
    // a deadline longer than the latency is met
    expect(
      (await c.forCaller({ priority: 'interactive', deadlineMs: 5000 }).games.list()).length,
    ).toBeGreaterThan(0);
  });

  it('serves a user request queued behind 50 background ones first', async () => {
    // the service does not limit here: the order comes from the client's own bucket alone
    const s = await service({ rate: 0 });
    const c = clientFor(s, { rate: { perSecond: 100, burst: 1 } });
    const order: string[] = [];
    const background = c.forCaller({ priority: 'background' });
    const user = c.forCaller({ priority: 'interactive' });
    const settle = (name: string) => [() => order.push(name), () => order.push(`${name}:failed`)] as const;
    const work = Array.from({ length: 50 }, (_, i) =>
      background.teams.list({ skip: i, take: 1 }).then(...settle(`bg${i}`)),
    );
    // one background request holds the only token; the others wait in the limiter's queue
    await expect.poll(() => c.stats().queueLength).toBeGreaterThanOrEqual(45);
    const waiting = c.stats().queueLength;
    work.push(user.games.list().then(...settle('user')));
    await Promise.all(work);
    expect(order.filter((o) => o.endsWith(':failed'))).toEqual([]);
    // Only the background requests already sent (50 - waiting), plus at most one dispatched while the
    // user's answer was on the wire, finish before it; without priorities it would finish last.
    expect(order.indexOf('user')).toBeLessThanOrEqual(50 - waiting + 1);
    expect(order.at(-1)).not.toBe('user');
  });

  it('reports a wrong secret as UnauthorizedError without retrying, and never echoes the secret', async () => {
    const s = await service({ rate: 0 });
    const logger = captureLogger();
    const c = createClient({ baseUrl: s.url, secret: 'wrong-secret-123456', logger });
    cleanups.push(() => c.close());
    const error = await c.games.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as UnauthorizedError).msg).toBe('Invalid secret.');
    expect(s.requests).toBe(1);
    expect(`${(error as Error).message}${JSON.stringify(logger.lines)}`).not.toContain('wrong-secret-123456');
  });

  it('never lets the client exceed the service budget: no 429 at 5 requests/s', async () => {
    const s = await service();
    const c = createClient({ baseUrl: s.url, secret: s.secret });
    cleanups.push(() => c.close());
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => c.teams.list({ skip: i, take: 1 }, { priority: 'background' })),
    );
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(c.stats().rateLimited).toBe(0);
    expect(s.requests).toBe(12);
  });
});

// keep the imports honest: these classes are part of what a caller may meet from this service
void GoneError;
void RateLimitedError;
