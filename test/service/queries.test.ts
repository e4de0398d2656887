// biome-ignore-all lint/suspicious/noExplicitAny: JSON bodies from the service under test
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ID_SPACES } from '../../src/protocol/fields.ts';
import type { RunningService } from '../../src/service/index.ts';
import { compileFilter } from '../../src/service/query.ts';
import { allPages, get, ids, ok, start } from './helpers.ts';

let service: RunningService;
let series: any[];
beforeAll(async () => {
  service = await start();
  // Every series of one game and tier, the reference for the operator checks below.
  series = await allPages(service, '/series?filter=game.id=2,tier=3&order=id-asc');
});
afterAll(() => service.close());

const rosterIds = (s: any) => s.participants.map((p: any) => p.roster.id);

describe('the filter evaluator', () => {
  const record = {
    id: 7,
    name: 'Cobalt Herons',
    tags: ['a', 'b'],
    nested: [{ x: { id: 1 } }, { x: { id: 2 } }],
    flag: true,
    gone: null,
  };
  const test = (filter: string) => compileFilter('series', filter).test(record);
  it('reads dotted paths through arrays, sets, wildcards, booleans and null', () => {
    // series fields are used as the vocabulary; the record only needs the paths.
    const r = {
      ...record,
      participants: record.nested.map((n) => ({ roster: n.x, winner: false })),
      title: record.name,
      streamed: true,
      deleted_at: null,
    };
    const t = (f: string) => compileFilter('series', f).test(r);
    expect(t('participants.roster.id=1')).toBe(true);
    expect(t('participants.roster.id={1,2}')).toBe(true);
    expect(t('participants.roster.id={2,1}')).toBe(true);
    expect(t('participants.roster.id={1}')).toBe(false);
    expect(t('participants.roster.id={1,2,3}')).toBe(false);
    expect(t('participants.roster.id^{3,2}')).toBe(true);
    expect(t('participants.roster.id^{3,4}')).toBe(false);
    expect(t('participants.roster.id>={1,2}')).toBe(true);
    expect(t('participants.roster.id>={1,3}')).toBe(false);
    expect(t('participants.roster.id<={1,2,3}')).toBe(true);
    expect(t('participants.roster.id<={1}')).toBe(false);
    expect(t('id<={5,7}')).toBe(true);
    expect(t('id<{5,6}')).toBe(false);
    expect(t('id!=7')).toBe(false);
    expect(t('id!=8')).toBe(true);
    expect(t('title~=cobalt*')).toBe(true);
    expect(t('title~=*Heron_')).toBe(true);
    expect(t('title~=*Heron')).toBe(false);
    expect(t('title~=C_balt Herons')).toBe(true);
    expect(t('streamed=1')).toBe(true);
    expect(t('streamed=true')).toBe(true);
    expect(t('streamed=0')).toBe(false);
    expect(t('deleted_at=null')).toBe(true);
    expect(t('deleted_at!=null')).toBe(false);
    expect(t('participants.winner=0,id=7')).toBe(true);
    expect(t('participants.winner=0,id=8')).toBe(false);
    expect(test('id=7')).toBe(true);
  });
});

describe('filters over HTTP', () => {
  it('= on a scalar and on a set of one', async () => {
    const some = series.slice(0, 5);
    for (const s of some) expect(ids(await ok(service, `/series?filter=id=${s.id}`))).toEqual([s.id]);
  });

  it('<= and < select any member of the set', async () => {
    const pick = [series[0].id, series[3].id, series[7].id];
    expect(ids(await ok(service, `/series?filter=id<={${pick.join(',')}}&order=id-asc`))).toEqual(pick);
    expect(ids(await ok(service, `/series?filter=id<{${pick.join(',')}}&order=id-asc`))).toEqual(pick);
  });

  it('^ selects series with any of the rosters, >= with all of them', async () => {
    const a = rosterIds(series[0])[0];
    const b = rosterIds(series[1])[0];
    const any = await allPages(
      service,
      `/series?filter=game.id=2,tier=3,participants.roster.id^{${a},${b}}&order=id-asc`,
    );
    expect(ids(any)).toEqual(ids(series.filter((s) => rosterIds(s).includes(a) || rosterIds(s).includes(b))));
    const [x, y] = rosterIds(series[0]);
    const both = await allPages(service, `/series?filter=participants.roster.id>={${x},${y}}&order=id-asc`);
    expect(both.length).toBeGreaterThan(0);
    for (const s of both) expect(rosterIds(s)).toEqual(expect.arrayContaining([x, y]));
  });

  it('head-to-head: ^{x,y},^{a,b} (example 8) and ={x,y} (example 9)', async () => {
    const [x, y] = rosterIds(series[0]);
    const exact = await allPages(service, `/series?filter=participants.roster.id={${x},${y}}`);
    expect(exact.map((s) => s.id)).toContain(series[0].id);
    for (const s of exact) expect([...rosterIds(s)].sort()).toEqual([x, y].sort());
    const other = rosterIds(series[5])[0];
    const h2h = await allPages(
      service,
      `/series?filter=participants.roster.id^{${x},${other}},participants.roster.id^{${y}}`,
    );
    expect(h2h.length).toBeGreaterThan(0);
    for (const s of h2h) {
      const r = rosterIds(s);
      expect(r.includes(x) || r.includes(other)).toBe(true);
      expect(r.includes(y)).toBe(true);
    }
    const matches = await ok<any[]>(service, `/matches?filter=participants.roster.id={${x},${y}}`);
    for (const m of matches) expect([...rosterIds(m)].sort()).toEqual([x, y].sort());
  });

  it('~= wildcards, != and null, booleans as 1/0/true/false, coverage paths', async () => {
    const teams = await ok<any[]>(service, '/teams?filter=name~=C*');
    expect(teams.length).toBeGreaterThan(0);
    for (const t of teams) expect(t.name).toMatch(/^C/i);
    const notTier = await ok<any[]>(service, '/series?filter=tier!=1&take=50');
    for (const s of notTier) expect(s.tier).not.toBe(1);
    const over = await ok<any[]>(service, '/series?filter=end!=null,deleted_at=null&take=50');
    for (const s of over) expect(['over', 'over-forfeited']).toContain(s.lifecycle);
    const streamedTrue = ids(await ok(service, '/series?filter=streamed=true&take=50'));
    expect(ids(await ok(service, '/series?filter=streamed=1&take=50'))).toEqual(streamedTrue);
    for (const s of await ok<any[]>(service, '/series?filter=streamed=0&take=50'))
      expect(s.streamed).toBe(false);
    const covered = await ok<any[]>(
      service,
      '/series?filter=coverage.data.live.cv.fact<{available,partial}&take=50',
    );
    expect(covered.length).toBeGreaterThan(0);
    for (const s of covered) expect(['available', 'partial']).toContain(s.coverage.data.live.cv.fact);
  });

  it('compares datetimes as instants and wildcards inside collections', async () => {
    const s = series[4];
    const same = s.start.replace('.000Z', '+00:00');
    expect(
      ids(await ok(service, `/series?filter=start=${encodeURIComponent(same)},game.id=2,tier=3`)),
    ).toContain(s.id);
    for (const x of await ok<any[]>(service, `/series?filter=start=${s.start}`))
      expect(x.start).toBe(s.start);
    const aka = (await ok<any[]>(service, '/teams?take=50')).find((t) => t.also_known_as.length > 0);
    const word = aka.also_known_as[0].split(' ')[0];
    expect(ids(await ok(service, `/teams?filter=also_known_as~=${word}*&take=50`))).toContain(aka.id);
    expect(await ok(service, '/teams?filter=also_known_as~=zzzz*')).toEqual([]);
  });

  it('combines conditions with AND', async () => {
    const live = await ok<any[]>(service, '/series?filter=lifecycle=live,tier<={1,2,3}');
    for (const s of live) {
      expect(s.lifecycle).toBe('live');
      expect(s.tier).toBeLessThanOrEqual(3);
    }
  });
});

describe('ordering and paging', () => {
  it('pages concatenate to the whole ordered list with no gap and no repeat', async () => {
    for (const order of [
      'start-asc',
      'start-desc',
      'id-asc',
      'title-asc,id-desc',
      'lifecycle-asc,start-desc',
    ]) {
      const whole = await allPages(service, `/series?filter=game.id=2,tier=3&order=${order}`, 50);
      const small = await allPages(service, `/series?filter=game.id=2,tier=3&order=${order}`, 17);
      expect(ids(small), order).toEqual(ids(whole));
      expect(new Set(ids(whole)).size).toBe(series.length);
    }
  });

  it('orders by the keys, ties broken by ascending id', async () => {
    const byStartDesc = await allPages(service, '/series?filter=game.id=2,tier=3&order=start-desc');
    for (let i = 1; i < byStartDesc.length; i++) {
      const [a, b] = [byStartDesc[i - 1], byStartDesc[i]];
      expect(a.start > b.start || (a.start === b.start && a.id < b.id)).toBe(true);
    }
    const byTitle = await allPages(service, '/series?filter=game.id=2,tier=3&order=title-asc');
    for (let i = 1; i < byTitle.length; i++) {
      const [a, b] = [byTitle[i - 1], byTitle[i]];
      expect(a.title < b.title || (a.title === b.title && a.id < b.id)).toBe(true);
    }
    const byPoints = await ok<any[]>(service, '/teams?order=name-desc&take=10');
    expect(byPoints.map((t) => t.name)).toEqual([...byPoints.map((t) => t.name)].sort().reverse());
  });

  it('skip past the end answers an empty page', async () => {
    expect(await ok(service, `/series?filter=game.id=2,tier=3&skip=${series.length}`)).toEqual([]);
  });
});

describe('aliases', () => {
  const same = async (alias: string, base: string) => {
    expect(await ok(service, alias), alias).toEqual(await ok(service, base));
  };

  it('/games/{id}/maps equals /maps with game.id', async () => {
    for (const game of [1, 2, 3, 4, 5, 6]) {
      await same(`/games/${game}/maps`, `/maps?filter=game.id=${game}`);
      await same(`/games/${game}/maps?filter=official=1`, `/maps?filter=official=1,game.id=${game}`);
    }
  });

  it('/series/{id}/matches, /series/{id}/rosters and /matches/{id}/rosters, for many series', async () => {
    for (const s of series.slice(0, 25)) {
      await same(`/series/${s.id}/matches`, `/matches?filter=series.id=${s.id}`);
      await same(`/series/${s.id}/rosters`, `/rosters?filter=id<={${rosterIds(s).join(',')}}`);
      await same(`/matches/${s.matches[0].id}/rosters`, `/rosters?filter=id<={${rosterIds(s).join(',')}}`);
    }
  });

  it('/rosters/{id}/series and /lineups/{id}/series and /lineups/{id}/rosters, for many rosters', async () => {
    const rosters = new Set<number>(series.slice(0, 40).flatMap(rosterIds));
    for (const roster of [...rosters].slice(0, 20)) {
      await same(
        `/rosters/${roster}/series?order=start-asc`,
        `/series?filter=participants.roster.id^{${roster}}&order=start-asc`,
      );
      const lineup = (await ok<any>(service, `/rosters/${roster}`)).line_up.id;
      await same(`/lineups/${lineup}/rosters`, `/rosters?filter=line_up.id=${lineup}`);
      const ofLineup = ids(await ok(service, `/rosters?filter=line_up.id=${lineup}`));
      await same(
        `/lineups/${lineup}/series?take=20&skip=5`,
        `/series?filter=participants.roster.id^{${ofLineup.join(',')}}&take=20&skip=5`,
      );
    }
  });

  it('tournament, stage and substage aliases, for many of each', async () => {
    const tournaments = await ok<any[]>(service, '/tournaments?filter=game.id<={1,4,5}&take=12');
    for (const t of tournaments) {
      await same(`/tournaments/${t.id}/stages`, `/stages?filter=tournament.id=${t.id}`);
      await same(`/tournaments/${t.id}/substages`, `/substages?filter=tournament.id=${t.id}`);
      await same(
        `/tournaments/${t.id}/series?order=start-asc`,
        `/series?filter=tournament.id=${t.id}&order=start-asc`,
      );
      for (const stage of await ok<any[]>(service, `/tournaments/${t.id}/stages`)) {
        await same(`/stages/${stage.id}/substages`, `/substages?filter=stage.id=${stage.id}`);
        expect(stage.substages).toEqual(await ok(service, `/stages/${stage.id}/substages`));
        for (const sub of stage.substages)
          await same(
            `/substages/${sub.id}/series?order=id-desc`,
            `/series?filter=substage.id=${sub.id}&order=id-desc`,
          );
      }
    }
  });

  it('/series/{id}/casters: primary first, then by id', async () => {
    const streamed = await ok<any[]>(service, '/series?filter=streamed=1&take=50');
    let checked = 0;
    for (const s of streamed) {
      const casters = await ok<any[]>(service, `/series/${s.id}/casters`);
      const primary = s.casters.find((c: any) => c.primary)?.caster.id;
      const rest = s.casters
        .filter((c: any) => !c.primary)
        .map((c: any) => c.caster.id)
        .sort((a: number, b: number) => a - b);
      expect(ids(casters)).toEqual(primary === undefined ? rest : [primary, ...rest]);
      checked += casters.length;
    }
    expect(checked).toBeGreaterThan(50);
  });
});

describe('id spaces', () => {
  it('resolves a path id as an external id by query parameter or header, for many series', async () => {
    for (const space of ID_SPACES) {
      const listed = await ok<any[]>(
        service,
        `/id_spaces/${space.id}/series?filter=game.id=2,tier=3,deleted_at=null&order=id-asc`,
      );
      const withExternal = listed.filter((s) => s.external_id !== null);
      expect(withExternal.length).toBeGreaterThan(20);
      expect(listed.some((s) => s.external_id === null)).toBe(true);
      for (const s of withExternal.slice(0, 15)) {
        const { external_id: external, ...plain } = s;
        expect(String(Number(external))).toBe(external);
        expect(await ok(service, `/series/${external}?id_space=${space.name}`)).toEqual(plain);
        expect(await ok(service, `/series/${external}`, { 'Service-IdSpace': space.name })).toEqual(plain);
        expect(await ok(service, `/series/${external}/matches?id_space=${space.name}`)).toEqual(
          await ok(service, `/series/${s.id}/matches`),
        );
        expect(
          ids(await ok(service, `/id_spaces/${space.id}/series?filter=external_id=${external}`)),
        ).toEqual([s.id]);
      }
    }
  });

  it('resolves other resources and answers 404 for an id the space does not know', async () => {
    const team = (await ok<any[]>(service, '/teams?take=1'))[0];
    const external = service.world.externalId(2, 'team', team.id)!;
    expect(await ok(service, `/teams/${external}?id_space=betgrid`)).toEqual(team);
    const game = await ok<any>(service, `/games/${service.world.externalId(1, 'game', 2)}?id_space=oddsline`);
    expect(game.id).toBe(2);
    const unknown = await get(service, `/series/${series[0].id}?id_space=oddsline`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toMatch(/oddsline/);
    const bad = await get(service, '/series/1', { headers: { 'Service-IdSpace': 'acme' } });
    expect(bad.status).toBe(400);
  });
});

describe('the series indexes', () => {
  it('answer exactly what a full scan of the window answers, for many filters and orders', async () => {
    const t = service.clock.nowMs();
    const all = service.world.seriesInWindow(t);
    const sample = all.filter((_, i) => i % 997 === 0);
    const roster = (i: number) => sample[i % sample.length]!.participants[0]!.roster.id;
    const filters = [
      'lifecycle=live',
      'lifecycle=upcoming,game.id=3,tier=1',
      'lifecycle<={live,over},tier<={1,2},game.id=2',
      'lifecycle=over-forfeited',
      'lifecycle=deleted',
      `participants.roster.id^{${roster(0)},${roster(1)}}`,
      `participants.roster.id^{${roster(2)}},participants.roster.id^{${sample[2]!.participants[1]!.roster.id},${roster(4)}}`,
      `participants.roster.id>={${roster(5)}},lifecycle=over`,
      `tournament.id=${sample[3]!.tournament.id}`,
      `substage.id<={${sample[4]!.substage.id},${sample[5]!.substage.id}}`,
      `id<={${sample.map((s) => s.id).join(',')}}`,
      'casters.primary=1,lifecycle=live',
      'game.id^{1,6},lifecycle!=over,lifecycle!=upcoming',
    ];
    let nonEmpty = 0;
    for (const filter of filters) {
      const compiled = compileFilter('series', filter);
      const expected = all.filter((s) => compiled.test(s));
      if (expected.length > 0) nonEmpty++;
      for (const order of ['start-asc', 'start-desc', 'tier-desc', '']) {
        const got = await allPages(service, `/series?filter=${filter}${order ? `&order=${order}` : ''}`);
        const sorted = [...expected].sort((a, b) => {
          if (order === 'start-asc') return a.start!.localeCompare(b.start!) || a.id - b.id;
          if (order === 'start-desc') return b.start!.localeCompare(a.start!) || a.id - b.id;
          if (order === 'tier-desc') return b.tier - a.tier || a.id - b.id;
          return a.id - b.id;
        });
        expect(ids(got), `${filter} ${order}`).toEqual(ids(sorted));
      }
    }
    expect(nonEmpty).toBe(filters.length);
  });
});
