// biome-ignore-all lint/suspicious/noExplicitAny: JSON bodies from the service under test
/**
 * The `/v2` interface against the provider's v2 specification: token rules on a jumped clock, the error
 * body, access tokens, envelopes and page bounds, array parameters, `with[]`, ordering, filters,
 * 404/410 and the per-second and per-minute limits. Expectations come from the world (`service.world`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clock } from '../../src/core/clock.ts';
import { parseServiceArgs } from '../../src/service/cli.ts';
import type { RunningService } from '../../src/service/index.ts';
import { liveApiSummary } from '../../src/service/live.ts';
import type { SeriesPlan } from '../../src/service/schedule.ts';
import { INSTANT, start } from './helpers.ts';

const PAIR = { id: 'bot', secret: 's3cret' };

async function tokenRequest(
  service: RunningService,
  body: Record<string, string>,
  type = 'application/x-www-form-urlencoded',
) {
  const res = await fetch(`${service.v2.url}/oauth/access_token`, {
    method: 'POST',
    headers: { 'Content-Type': type },
    body: new URLSearchParams(body).toString(),
  });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

const creds = { grant_type: 'client_credentials', client_id: PAIR.id, client_secret: PAIR.secret };

async function v2get(service: RunningService, path: string, token: string | null) {
  const sep = path.includes('?') ? '&' : '?';
  const url = `${service.v2.url}${path}${token === null ? '' : `${sep}access_token=${encodeURIComponent(token)}`}`;
  const res = await fetch(url);
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as any, headers: res.headers };
}

describe('v2 tokens (service)', () => {
  let service: RunningService;
  let clock: Clock;
  beforeAll(async () => {
    clock = new Clock({ start: INSTANT, frozen: true });
    service = await start({ clock, v2Clients: [PAIR] });
  });
  afterAll(() => service.close());

  it('returns the same token within the first 50 minutes, a new one after, and expires it at 60', async () => {
    clock.set(INSTANT);
    const first = await tokenRequest(service, creds);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(typeof first.body.access_token).toBe('string');

    clock.set(new Date(INSTANT.getTime() + 49 * 60_000));
    const again = await tokenRequest(service, creds);
    expect(again.body.access_token).toBe(first.body.access_token);
    expect(again.body.expires_in).toBe(11 * 60);
    expect((await v2get(service, '/games', first.body.access_token)).status).toBe(200);

    clock.set(new Date(INSTANT.getTime() + 51 * 60_000));
    const renewed = await tokenRequest(service, creds);
    expect(renewed.body.access_token).not.toBe(first.body.access_token);
    expect(renewed.body.expires_in).toBe(3600);
    // The old token stays valid until its own hour is over.
    expect((await v2get(service, '/games', first.body.access_token)).status).toBe(200);

    clock.set(new Date(INSTANT.getTime() + 60 * 60_000));
    const expired = await v2get(service, '/games', first.body.access_token);
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({
      error: 'Unauthorized',
      error_code: 401,
      error_description: 'The access token has expired: obtain a new one with POST /oauth/access_token.',
    });
    expect((await v2get(service, '/games', renewed.body.access_token)).status).toBe(200);
    clock.set(INSTANT);
  });

  it('answers every token error of the spec table in the v2 body', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ ...creds, grant_type: 'password' }, 'Missing or invalid grant type.'],
      [{ grant_type: 'client_credentials', client_secret: 'x' }, 'Missing client id.'],
      [{ grant_type: 'client_credentials', client_id: PAIR.id }, 'Missing client secret.'],
      [{ ...creds, client_secret: 'wrong' }, 'Invalid client credentials.'],
    ];
    for (const [body, description] of cases) {
      const answer = await tokenRequest(service, body);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: 'Unauthorized', error_code: 401, error_description: description });
    }
    const json = await tokenRequest(service, creds, 'application/json');
    expect(json.status).toBe(400);
    expect(json.body.error_description).toMatch(/^Could not parse data\. .*x-www-form-urlencoded/);
  });

  it('refuses a GET without a token or with a wrong one', async () => {
    const missing = await v2get(service, '/series', null);
    expect(missing.status).toBe(401);
    expect(missing.body.error_code).toBe(401);
    expect(missing.body.error_description).toMatch(/Missing access token/);
    const wrong = await v2get(service, '/series', 'not-a-token');
    expect(wrong.body).toEqual({
      error: 'Unauthorized',
      error_code: 401,
      error_description: 'Invalid access token.',
    });
  });
});

describe('v2 resources (service)', () => {
  let service: RunningService;
  let token: string;
  const t = INSTANT.getTime();
  beforeAll(async () => {
    service = await start({ v2Clients: [PAIR] });
    token = (await tokenRequest(service, creds)).body.access_token;
  });
  afterAll(() => service.close());
  const get = (path: string) => v2get(service, path, token);

  it('lists upcoming and live series in the envelope, by start, without embedded parts unless asked', async () => {
    const { status, body, headers } = await get('/series');
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['current_page', 'data', 'last_page']);
    expect(body.current_page).toBe(1);
    expect(new Date(headers.get('date')!).getTime()).toBe(t);
    const expected = service.world
      .seriesInWindow(t)
      // is_deleted unset returns deleted series too: one whose start has not come is not over.
      .filter((s) => (s.deleted_at === null ? s.end === null : Date.parse(s.start!) > t))
      .sort((a, b) => Date.parse(a.start!) - Date.parse(b.start!) || a.id - b.id);
    expect(body.last_page).toBe(Math.ceil(expected.length / 50));
    expect(body.data.map((s: any) => s.id)).toEqual(expected.slice(0, 50).map((s) => s.id));
    const first = body.data[0];
    for (const key of ['tournament', 'matches', 'casters', 'sportsbook_odds'])
      expect(first).not.toHaveProperty(key);
    const v3 = expected[0]!;
    expect(first).toMatchObject({
      id: v3.id,
      title: v3.title,
      start: v3.start,
      end: null,
      tier: v3.tier,
      bestOf: v3.best_of,
      tournament_id: v3.tournament.id,
      substage_id: v3.substage.id,
      seeding: { 1: v3.participants[0]!.roster.id, 2: v3.participants[1]!.roster.id },
    });
    expect(first.scores[String(v3.participants[0]!.roster.id)]).toBe(v3.participants[0]!.score);
    expect(first.rosters[0].teams[0].id).toBeTypeOf('number');
    const last = await get(`/series?page=${body.last_page}`);
    expect(last.body.data.length).toBe(expected.length - (body.last_page - 1) * 50);
    const beyond = await get(`/series?page=${body.last_page + 1}`);
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual({ last_page: body.last_page, current_page: body.last_page + 1, data: [] });
  });

  it('filters series by games[], tiers[], competitors[], is_over, starts_before/after, and orders them', async () => {
    const all = service.world.seriesInWindow(t);
    const game = all[0]!.game.id;
    const live = await get(`/series?games[]=${game}&tiers[]=1&tiers[]=2&starts_before=now&is_over=false`);
    const expectedLive = all.filter(
      (s) =>
        s.game.id === game &&
        s.tier <= 2 &&
        s.end === null &&
        s.deleted_at === null &&
        Date.parse(s.start!) < t,
    );
    expect(live.body.data.map((s: any) => s.id).sort()).toEqual(expectedLive.map((s) => s.id).sort());
    expect(expectedLive.length).toBeGreaterThan(0);

    const roster = all[0]!.participants[0]!.roster.id;
    const recent = await get(`/series?competitors[]=${roster}&is_over=true&order=end&sort=DESC`);
    const expectedRecent = all
      .filter((s) => s.end !== null && s.participants.some((p) => p.roster.id === roster))
      .sort((a, b) => Date.parse(b.end!) - Date.parse(a.end!) || a.id - b.id);
    expect(recent.body.data.map((s: any) => s.id)).toEqual(expectedRecent.slice(0, 50).map((s) => s.id));
    expect(expectedRecent.length).toBeGreaterThan(0);

    const after = new Date(t + 3_600_000).toISOString();
    const soon = await get(
      `/series?starts_after=${after}&starts_before=${new Date(t + 7_200_000).toISOString()}`,
    );
    for (const s of soon.body.data) {
      expect(Date.parse(s.start)).toBeGreaterThanOrEqual(t + 3_600_000);
      expect(Date.parse(s.start)).toBeLessThan(t + 7_200_000);
    }
    expect(soon.body.data.length).toBeGreaterThan(0);
    const deleted = await get('/series?is_deleted=true&is_over=true');
    for (const s of deleted.body.data) expect(s.deleted_at).not.toBeNull();
  });

  it('embeds with[] parts: matches, casters, tournament', async () => {
    const plan = service.world
      .window(t)
      .series.find((p) => p.casters.length > 0 && p.start < t && p.end > t)!;
    const { body } = await get(`/series/${plan.id}?with[]=matches&with[]=casters&with[]=tournament`);
    expect(body.matches.map((m: any) => m.id)).toEqual(plan.matches.map((m) => m.id));
    expect(body.matches[0]).toMatchObject({ series_id: plan.id, order: 1 });
    expect(body.casters.length).toBe(plan.casters.length);
    expect(body.casters[0].primary).toBe(plan.casters.some((c) => c.primary));
    expect(body.tournament.id).toBe(plan.tournament.id);
    const bad = await get(`/series/${plan.id}?with[]=everything`);
    expect(bad.status).toBe(400);
    expect(bad.body.error_description).toMatch(/^Could not parse data\. with\[\] "everything"/);
  });

  it('answers 404, 410 with the body of a deleted series, and 400 on bad integers', async () => {
    const missing = await get('/series/12');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      error: 'Not Found',
      error_code: 404,
      error_description: 'The specified resource could not be found.',
    });
    const unknownPath = await get('/nothing');
    expect(unknownPath.body.error_description).toBe('Resource not found.');
    const gone = service.world.window(t).series.find((p) => p.deletedAt !== null && p.deletedAt <= t)!;
    const deleted = await get(`/series/${gone.id}`);
    expect(deleted.status).toBe(410);
    expect(deleted.body).toMatchObject({ id: gone.id });
    expect(deleted.body.deleted_at).not.toBeNull();
    for (const path of [
      '/series?page=0',
      '/series?page=two',
      '/series?games[]=x',
      '/series/abc',
      '/series?is_over=maybe',
      '/teams/1?months_back=a',
    ]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.body.error_code).toBe(400);
      expect(answer.body.error_description).toMatch(/^Could not parse data\./);
    }
  });

  it('lists tournaments, teams, players, games and organisations with q, arrays and embedding', async () => {
    const window = service.world.window(t);
    const plan = window.tournaments.find((x) => x.end > t)!;
    const found = await get(`/tournaments?q=${encodeURIComponent(plan.shortTitle)}&with[]=stages.substages`);
    expect(found.body.data.map((x: any) => x.id)).toContain(plan.id);
    const item = found.body.data.find((x: any) => x.id === plan.id);
    expect(item.stages[0].substages[0].id).toBe(plan.stages[0]!.substages[0]!.id);
    expect(item).not.toHaveProperty('series');
    const one = await get(`/tournaments/${plan.id}?with[]=series`);
    expect(one.body.series.length).toBe(
      plan.stages.flatMap((s) => s.substages.flatMap((x) => x.series)).length,
    );

    const team = service.world.catalog.teams.find((x) => x.active)!;
    const teams = await get(`/teams?q=${encodeURIComponent(team.name)}&games[]=${team.game.id}`);
    expect(teams.body.data[0]).toMatchObject({ id: team.id, name: team.name, short_name: team.abbreviation });
    const detail = await get(`/teams/${team.id}?with[]=rosters&with[]=schedule`);
    expect(detail.body.rosters[0].id).toBe(team.standing_roster!.roster.id);
    expect(detail.body.upcoming_series.length).toBeLessThanOrEqual(5);
    expect((await get(`/teams/${team.id}`)).body).not.toHaveProperty('rosters');
    // `game` is an optional part of a team and a player (`with[]=game`): absent unless asked.
    expect(teams.body.data[0]).not.toHaveProperty('game');
    expect((await get(`/teams/${team.id}`)).body).not.toHaveProperty('game');
    const withGame = await get(`/teams?q=${encodeURIComponent(team.name)}&with[]=game`);
    expect(withGame.body.data[0].game.id).toBe(team.game.id);

    const player = service.world.catalog.players.find((p) => p.active)!;
    const players = await get(`/players?q=${encodeURIComponent(player.nick_name)}`);
    expect(players.body.data.map((p: any) => p.id)).toContain(player.id);
    expect(players.body.data[0]).not.toHaveProperty('game');
    expect(players.body.data[0]).not.toHaveProperty('team');
    expect((await get(`/players/${player.id}`)).body).not.toHaveProperty('game');
    expect((await get(`/players/${player.id}?with[]=game`)).body.game.id).toBe(player.game.id);
    const games = await get('/games?q=strike');
    expect(games.body.data.map((g: any) => g.long_title)).toEqual(['Strike Point']);
    const orgs = await get('/organisations');
    expect(Object.keys(orgs.body.data[0]).sort()).toEqual(['id', 'name']);
    const org = await get(`/organisations/${orgs.body.data[0].id}`);
    expect(org.body.teams.length).toBeGreaterThan(0);
  });

  it('answers matches, light summaries, substages with standings, rosters and incidents', async () => {
    const plan = service.world
      .window(t)
      .series.find((p) => p.kind === 'moba' && p.matches[0]!.start < t && p.deletedAt === null)!;
    const match = await get(`/matches/${plan.matches[0]!.id}`);
    expect(match.body).toMatchObject({ id: plan.matches[0]!.id, series_id: plan.id, order: 1 });
    const light = await get(`/matches/${plan.matches[0]!.id}/light_summary`);
    expect(light.status).toBe(200);
    expect(light.body.radiant.roster.id).toBe(plan.rosters[0]);
    const upcoming = service.world.window(t).series.find((p) => p.start > t + 3_600_000)!;
    expect((await get(`/matches/${upcoming.matches[0]!.id}/light_summary`)).status).toBe(404);
    const sub = await get(`/substages/${plan.substage.id}?with[]=standings`);
    expect(sub.body.standings.length).toBe(plan.substage.rosters.length);
    expect(sub.body).not.toHaveProperty('series');
    const roster = await get(`/rosters/${plan.rosters[0]}`);
    expect(roster.body.players.length).toBeGreaterThan(0);
    const incidents = await get('/incidents');
    expect(incidents.body.data.length).toBe(Math.min(50, service.world.incidentsAt(t).length));
  });

  it("gives a battle-royale lobby's standings their points (placement points, no win/draw/loss system)", async () => {
    // A lobby (type 3) whose series have been played: its table is ranked by points.
    const window = service.world.window(t);
    const lobby = window.tournaments
      .flatMap((x) => x.stages.flatMap((stage) => stage.substages))
      .map((sub) => service.world.substageAt(sub, t))
      .find((sub) => sub.type === 3 && sub.standings.some((s) => s.points > 0))!;
    expect(lobby).toBeDefined();
    const { body } = await get(`/substages/${lobby.id}?with[]=standings`);
    expect(body.rules.points).toEqual({ win: null, draw: null, loss: null, scope: 'series' });
    expect(
      body.standings.map((s: { roster_id: number; points: number | null }) => [s.roster_id, s.points]),
    ).toEqual(lobby.standings.map((s) => [s.roster.id, s.points]));
    // A substage without any point system still says so with null.
    const plain = window.tournaments
      .flatMap((x) => x.stages.flatMap((stage) => stage.substages))
      .map((sub) => service.world.substageAt(sub, t))
      .find((sub) => sub.type !== 3 && sub.rules.points === null && sub.standings.length > 0);
    expect(plain).toBeDefined();
    const other = await get(`/substages/${plain!.id}?with[]=standings`);
    expect(other.body.standings.every((s: { points: number | null }) => s.points === null)).toBe(true);
  });
});

describe('v2 to the letter (service)', () => {
  let service: RunningService;
  let token: string;
  const t = INSTANT.getTime();
  beforeAll(async () => {
    service = await start({ v2Clients: [PAIR] });
    token = (await tokenRequest(service, creds)).body.access_token;
  });
  afterAll(() => service.close());
  const get = (path: string) => v2get(service, path, token);
  const plans = () => service.world.window(t).series;

  it("counts a bracket position's offset from 1 in each part's final", async () => {
    const bracket = plans().filter((p) => p.bracket !== null && p.deletedAt === null);
    const finals = bracket.filter((p) => {
      const cols = bracket.filter(
        (x) => x.substage.id === p.substage.id && x.bracket!.part === p.bracket!.part,
      );
      return p.bracket!.col === Math.max(...cols.map((x) => x.bracket!.col));
    });
    expect(finals.length).toBeGreaterThan(0);
    for (const plan of finals.slice(0, 6)) {
      const { body } = await get(`/series/${plan.id}`);
      expect(body.bracket_pos, `series ${plan.id}`).toMatchObject({ part: plan.bracket!.part, offset: 1 });
    }
    // Every other position counts on from 1 in its column: the second of a column is 2.
    const second = bracket.find((p) => p.bracket!.offset === 1)!;
    expect((await get(`/series/${second.id}`)).body.bracket_pos.offset).toBe(2);
    const listed = await get(`/series?substages[]=${second.substage.id}&is_over=true`);
    for (const s of listed.body.data)
      if (s.bracket_pos) expect(s.bracket_pos.offset).toBeGreaterThanOrEqual(1);
  });

  it("gives a tournament's images the keys default, thumbnail, banner and fallback", async () => {
    const plan = service.world.window(t).tournaments[0]!;
    const one = await get(`/tournaments/${plan.id}`);
    expect(Object.keys(one.body.images).sort()).toEqual(['banner', 'default', 'fallback', 'thumbnail']);
    expect(one.body.images.banner).toMatch(/^http/);
    expect(typeof one.body.images.fallback).toBe('boolean');
    const list = await get('/tournaments');
    for (const x of list.body.data)
      expect(Object.keys(x.images).sort()).toEqual(['banner', 'default', 'fallback', 'thumbnail']);
  });

  it('embeds every series of a tournament in its detail, and only the upcoming 5 in the list', async () => {
    const plan = service.world.window(t).tournaments.find((x) => {
      const all = x.stages.flatMap((s) => s.substages.flatMap((sub) => sub.series));
      return all.length > 5 && all.some((p) => service.world.lifecycle(p, t) !== 'upcoming');
    })!;
    const all = plan.stages.flatMap((s) => s.substages.flatMap((sub) => sub.series));
    const one = await get(`/tournaments/${plan.id}?with[]=series`);
    expect(one.body.series.map((s: any) => s.id).sort()).toEqual(all.map((p) => p.id).sort());
    const list = await get(`/tournaments?q=${encodeURIComponent(plan.title)}&with[]=series&is_over=false`);
    const item = list.body.data.find((x: any) => x.id === plan.id);
    if (item) {
      expect(item.series.length).toBeLessThanOrEqual(5);
      for (const s of item.series) expect(Date.parse(s.start)).toBeGreaterThan(t);
    }
  });

  it('answers team statistics with streak objects { current, best >= 0, worst <= 0 } counted from results', async () => {
    const played = plans().filter(
      (p) => p.rosters.length === 2 && p.kind !== 'battle-royale' && service.world.lifecycle(p, t) === 'over',
    );
    const roster = played[0]!.rosters[0]!;
    const team = service.world.catalog.rosterById.get(roster)!.team.id;
    const rosters = new Set(service.world.catalog.rosters.filter((r) => r.team.id === team).map((r) => r.id));
    const mine = plans()
      .filter(
        (p) =>
          p.rosters.some((r) => rosters.has(r)) &&
          ['over', 'over-forfeited'].includes(service.world.lifecycle(p, t)),
      )
      .filter((p) => p.kind !== 'battle-royale')
      .sort((a, b) => a.end - b.end);
    const won = mine.map((p) => rosters.has(p.rosters[p.winner]!));
    let current = 0;
    let best = 0;
    let worst = 0;
    for (const w of won) {
      current = w ? Math.max(0, current) + 1 : Math.min(0, current) - 1;
      best = Math.max(best, current);
      worst = Math.min(worst, current);
    }
    const { body } = await get(`/teams/${team}?with[]=team_stats`);
    const stats = body.team_stats;
    expect(stats.streak.series).toEqual({ current, best, worst });
    expect(stats.streak.match.best).toBeGreaterThanOrEqual(0);
    expect(stats.streak.match.worst).toBeLessThanOrEqual(0);
    expect(stats.streak.match.current).not.toBe(0);
    expect(stats.winrate.series.history).toBe(won.length);
    expect(stats.winrate.series.rate).toBeCloseTo(won.filter(Boolean).length / won.length, 3);
    expect(stats.winrate.series.per_format.reduce((n: number, f: any) => n + f.history, 0)).toBe(won.length);
    expect(stats.winrate.match).toHaveProperty('per_map');
    // A roster's statistics have no series scope; a player's are one of single_player and play_by_play.
    const rosterStats = (await get(`/rosters/${roster}?with[]=roster_stats`)).body.roster_stats;
    expect(Object.keys(rosterStats.streak)).toEqual(['match']);
    expect(Object.keys(rosterStats.winrate)).toEqual(['match']);
    const player = service.world.catalog.rosterById.get(roster)!.line_up.players[0]!.id;
    const stats2 = (await get(`/players/${player}?with[]=player_stats`)).body.stats;
    expect([stats2.single_player, stats2.play_by_play].filter((x) => x === null).length).toBe(1);
    // A team with nothing played has a streak of zeros, not null.
    const idle = service.world.catalog.teams.find(
      (x) =>
        !service.world.catalog.rosters.some(
          (r) => r.team.id === x.id && service.world.window(t).byRoster.has(r.id),
        ),
    )!;
    if (idle) {
      const none = (await get(`/teams/${idle.id}?with[]=team_stats`)).body.team_stats;
      expect(none.streak.series).toEqual({ current: 0, best: 0, worst: 0 });
    }
    expect((await get(`/teams/${team}?with[]=team_stats&months_back=x`)).status).toBe(400);
  });

  it("gives a match whose flag says so its play-by-play summary through with[]=summary, in its game's shape", async () => {
    const started = plans().filter((p) => p.deletedAt === null && p.forfeit < 0 && p.matches[0]!.start < t);
    const moba = started.find((p) => p.kind === 'moba' && p.coverage.data.live.api.fact === 'available')!;
    const m = moba.matches[0]!;
    const match = await get(`/matches/${m.id}?with[]=summary`);
    expect(match.body.has_pbpstats).toBe(true);
    const s = match.body.summary;
    expect(Object.keys(s).sort()).toEqual(
      [
        'dire_roster',
        'draft_seq',
        'first_blood',
        'kills',
        'match_length',
        'player_stats',
        'radiant_roster',
        'roshan_events',
        'structure_dest',
      ].sort(),
    );
    expect(s.radiant_roster.id).toBe(moba.rosters[0]);
    expect(s.dire_roster.id).toBe(moba.rosters[1]);
    expect(s.match_length).toBe(Math.min(t, m.end) - m.start);
    // Kills on the game clock (0 is the first creep wave, 90 s after the start), as many as the score.
    const scores = service.world.matchScores(moba, m, t);
    expect(s.kills.length).toBe(scores[0]! + scores[1]!);
    for (const k of s.kills) expect(k.match_time).toBeGreaterThanOrEqual(-90_000);
    expect(s.first_blood).toEqual(s.kills[0] ?? null);
    expect(s.player_stats.map((p: any) => p.seed)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(s.draft_seq.filter((d: any) => d.type === 'pick').length).toBe(10);

    const shooter = started.find(
      (p) => p.kind === 'shooter' && p.coverage.data.live.api.fact === 'available' && p.matches[0]!.end < t,
    )!;
    const sm = shooter.matches[0]!;
    const sb = (await get(`/matches/${sm.id}?with[]=summary`)).body;
    expect(sb.has_pbpstats).toBe(true);
    expect(Object.keys(sb.summary).sort()).toEqual(['away', 'home', 'match_length', 'rounds', 'scoreboard']);
    expect(sb.summary.home).toBe(shooter.rosters[0]);
    expect(sb.summary.rounds.length).toBe(sm.scores[0]! + sm.scores[1]!);
    const round = sb.summary.rounds[0];
    expect(Object.keys(round).sort()).toEqual(
      [
        'bomb_events',
        'ct_side',
        'kills',
        'player_stats',
        'round_nr',
        't_side',
        'win_reason',
        'winner',
      ].sort(),
    );
    expect(['defused', 'exploded', 'time_limit', 'enemy_elimination']).toContain(round.win_reason);
    const killsInRounds = sb.summary.rounds.reduce((n: number, r: any) => n + r.kills.length, 0);
    const killsOnBoard = [...sb.summary.scoreboard[1], ...sb.summary.scoreboard[2]].reduce(
      (n: number, p: any) => n + p.kills,
      0,
    );
    expect(killsInRounds).toBe(killsOnBoard);

    // No flag, no summary: an upcoming match, and a game without play-by-play.
    const upcoming = plans().find((p) => p.kind === 'moba' && p.start > t + 3_600_000)!;
    const later = (await get(`/matches/${upcoming.matches[0]!.id}?with[]=summary`)).body;
    expect(later).toMatchObject({ has_pbpstats: false, summary: null });
    const soccer = started.find((p) => p.kind === 'esoccer')!;
    expect((await get(`/matches/${soccer.matches[0]!.id}?with[]=summary`)).body).toMatchObject({
      has_pbpstats: false,
      summary: null,
    });

    // A series' summary: the scoreboard by seeding, per-player totals of its maps.
    const series = (await get(`/series/${shooter.id}?with[]=summary`)).body.summary;
    expect(series.scoreboard[1].length).toBe(5);
    expect(series.scoreboard[1][0].roster.id).toBe(shooter.rosters[0]);
  });

  it('answers series and match performance from the results the rosters decided', async () => {
    // A decided series whose two rosters met before it: its past encounters name the earlier one.
    const decided = plans().filter(
      (p) => p.rosters.length === 2 && p.deletedAt === null && service.world.lifecycle(p, t) === 'over',
    );
    const byRoster = service.world.window(t).byRoster;
    const isDecided = new Set(decided.map((p) => p.id));
    const metBefore = (p: SeriesPlan) =>
      (byRoster.get(p.rosters[0]!) ?? []).some(
        (q) => q.id !== p.id && isDecided.has(q.id) && q.rosters.includes(p.rosters[1]!),
      );
    const plan = decided.find(metBefore) ?? decided[0]!;
    const { body } = await get(`/series/${plan.id}?with[]=roster_perf`);
    const [a, b] = plan.rosters as [number, number];
    const earlier = decided
      .filter((q) => q.id !== plan.id && q.rosters.includes(a) && q.rosters.includes(b))
      .map((q) => q.id)
      .sort();
    expect(body.performance.past_encounters.map((s: any) => s.id).sort()).toEqual(earlier);
    expect(Object.keys(body.performance.recent_performance).sort()).toEqual([String(a), String(b)].sort());
    const recent = body.performance.recent_performance[String(a)];
    expect(recent.length).toBeLessThanOrEqual(10);
    expect(recent.length).toBeGreaterThan(0);
    for (const s of recent) expect(s.end).not.toBeNull();
    const match = (await get(`/matches/${plan.matches[0]!.id}?with[]=performance`)).body.performance;
    if (earlier.length > 0 || plan.matches.length > 1) {
      expect(match.winrate.over_all.history).toBeGreaterThan(0);
      expect(match.winrate.over_all[String(a)] + match.winrate.over_all[String(b)]).toBeCloseTo(1, 2);
      expect(match.winrate.per_map[0]).toHaveProperty('map');
    }
  });

  it('ends a substage when its last series does, bounds months_back, and gives races their images', async () => {
    const subs = service.world.window(t).tournaments.flatMap((x) => x.stages.flatMap((st) => st.substages));
    const done = subs.find(
      (sub) => sub.series.length > 0 && sub.series.every((p) => service.world.lifecycle(p, t) === 'over'),
    )!;
    const ended = (await get(`/substages/${done.id}`)).body;
    expect(ended.end).toBe(new Date(Math.max(...done.series.map((p) => p.end))).toISOString());
    const running = subs.find((sub) => sub.series.some((p) => service.world.lifecycle(p, t) === 'upcoming'))!;
    expect((await get(`/substages/${running.id}`)).body.end).toBeNull();
    const team = service.world.catalog.teams.find((x) => x.active)!;
    const bad = await get(`/teams/${team.id}?months_back=0`);
    expect(bad.status).toBe(400);
    expect(bad.body.error_description).toBe('Could not parse data. months_back "0" must be 1 or more.');
    const player = service.world.catalog.players.find((p) => p.race !== null)!;
    expect((await get(`/players/${player.id}`)).body.race).toMatchObject({ id: player.race!.id, images: {} });
  });

  it("gives a MOBA's light summary its players' full figures, draft and building kills", async () => {
    const moba = plans().find(
      (p) => p.kind === 'moba' && p.deletedAt === null && p.forfeit < 0 && p.matches[0]!.end < t,
    )!;
    const light = (await get(`/matches/${moba.matches[0]!.id}/light_summary`)).body;
    expect(light.ended).toBe(true);
    expect(Object.keys(light.radiant.player_stats[0]).sort()).toEqual(
      [
        'assists',
        'creep_denies',
        'creep_kills',
        'deaths',
        'gpm',
        'hero',
        'hero_damage',
        'hero_healing',
        'items',
        'kills',
        'level',
        'networth',
        'player',
        'seed',
        'side',
        'tower_damage',
        'xpm',
      ].sort(),
    );
    expect(light.dire.player_stats.map((p: any) => [p.side, p.seed])).toEqual(
      [6, 7, 8, 9, 10].map((n) => ['dire', n]),
    );
    expect(light.draft.length).toBe(20);
    const fallen =
      light.radiant.structure_status.towers.filter((x: boolean) => !x).length +
      light.dire.structure_status.towers.filter((x: boolean) => !x).length;
    expect(light.building_kills.filter((b: any) => b.victim.type === 'tower').length).toBe(fallen);
    const barracks =
      light.radiant.structure_status.barracks.filter((x: boolean) => !x).length +
      light.dire.structure_status.barracks.filter((x: boolean) => !x).length;
    expect(light.building_kills.filter((b: any) => b.victim.type === 'barracks').length).toBe(barracks);
    // Each structure falls at the first millisecond the API summary shows it down.
    const m = moba.matches[0]!;
    const down = (at: number, side: 'home' | 'away') =>
      liveApiSummary(service.world, moba, m, at).teams[side].structures_status.towers.filter(
        (x) => !x.standing,
      ).length;
    for (const b of light.building_kills.filter((x: any) => x.victim.type === 'tower').slice(0, 6)) {
      const side = b.victim.position.side === 'radiant' ? 'home' : 'away';
      const at = m.start + b.match_time;
      expect(down(at, side)).toBeGreaterThan(down(at - 1, side));
    }
  });
});

describe('v2 rate limits (service)', () => {
  it('answers 429 in the v2 body past the per-second budget, and past the per-minute one', async () => {
    // The minute is a fixed real-time window: start well inside one.
    const toBoundary = 60_000 - (Date.now() % 60_000);
    if (toBoundary < 8000) await new Promise((r) => setTimeout(r, toBoundary + 100));
    const service = await start({ rate: 5, burst: 5, v2PerMinute: 8, v2Clients: [PAIR] });
    try {
      const token = (await tokenRequest(service, creds)).body.access_token;
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await v2get(service, '/games', token)).status);
      expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
      const refused = await v2get(service, '/games', token);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        error: 'Too Many Requests',
        error_code: 429,
        error_description: 'Too many requests',
      });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // Per minute: 8 in this minute at most, whatever the per-second bucket allows.
      await new Promise((r) => setTimeout(r, 1100));
      let ok = statuses.filter((s) => s === 200).length + 1; // the token request counts too
      const more: number[] = [];
      for (let i = 0; i < 4; i++) more.push((await v2get(service, '/games', token)).status);
      ok += more.filter((s) => s === 200).length;
      expect(ok).toBeLessThanOrEqual(8);
      expect(more).toContain(429);
    } finally {
      await service.close();
    }
  });
});

describe('matchday service --v2-client', () => {
  it('takes repeatable ID:SECRET pairs (the secret may hold colons) and refuses a malformed one', () => {
    expect(parseServiceArgs(['--v2-client', 'a:b', '--v2-client', 'c:d:e']).v2Clients).toEqual([
      { id: 'a', secret: 'b' },
      { id: 'c', secret: 'd:e' },
    ]);
    for (const bad of [
      ['--v2-client', 'nocolon'],
      ['--v2-client', ':x'],
      ['--v2-client', 'x:'],
      ['--v2-client'],
    ])
      expect(() => parseServiceArgs(bad)).toThrow(/--v2-client needs a client id and secret as ID:SECRET/);
  });
});
