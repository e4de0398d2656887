// biome-ignore-all lint/suspicious/noExplicitAny: JSON bodies from the service under test
/**
 * A playoff series names no team before its feeders are over (TBD), as on the
 * real service, and the world fills each slot in when its feeder ends. Driven over HTTP on a
 * jumped clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service/index.ts';
import type { SeriesPlan } from '../../src/service/schedule.ts';
import { get, INSTANT, ok, start } from './helpers.ts';

let service: RunningService;
beforeAll(async () => {
  service = await start();
});
afterAll(() => service.close());

const teamOf = (roster: number) => {
  const catalog = service.world.catalog;
  return catalog.teamById.get(catalog.rosterById.get(roster)!.team.id)!.name;
};

describe('playoff series before and after their feeders', () => {
  it('a grand final is TBD vs TBD until its feeders end, then names each side as its feeder ends', async () => {
    const world = service.world;
    const plans = world.window(INSTANT.getTime()).series;
    const final = plans.find(
      (p) => p.bracket?.part === 'GF' && p.kind !== 'battle-royale' && p.start > INSTANT.getTime(),
    )!;
    expect(final).toBeDefined();
    const feeders = final.sources.map((id) => plans.find((p) => p.id === id)!) as SeriesPlan[];
    expect(feeders.map((f) => f.id)).toEqual(final.chain.map((c) => c));
    const [first, second] = [...feeders].sort((a, b) => a.end - b.end);
    const firstSlot = final.sources.indexOf(first!.id);
    const secondSlot = 1 - firstSlot;

    // While the group stage runs: no participants, "TBD vs TBD", no rosters, and no team's
    // filter finds it.
    const groupStage = plans.filter(
      (p) => p.tournament.id === final.tournament.id && p.substage.stage.order === 1,
    );
    const groupsRunning = Math.min(...groupStage.map((p) => p.start)) + 60_000;
    service.clock.set(new Date(groupsRunning));
    const early = await ok(service, `/series/${final.id}`);
    expect(early.participants).toEqual([]);
    expect(early.title).toBe('TBD vs TBD');
    expect(await ok(service, `/series/${final.id}/rosters`)).toEqual([]);
    const matches = await ok(service, `/series/${final.id}/matches`);
    expect(matches.every((m: any) => m.participants.length === 0)).toBe(true);
    const byTeam = await ok(
      service,
      `/series?filter=participants.roster.id^{${final.rosters.join(',')}},id=${final.id}`,
    );
    expect(byTeam).toEqual([]);
    const bracket = await ok(service, `/substages/${final.substage.id}`);
    expect(bracket.rosters).toEqual([]);

    // The first feeder is over: its side is known, the other is still TBD.
    service.clock.set(new Date(first!.end + 1000));
    const half = await ok(service, `/series/${final.id}`);
    expect(half.participants.map((p: any) => p.roster.id)).toEqual([final.rosters[firstSlot]]);
    const names = [0, 1].map((i) => (i === firstSlot ? teamOf(final.rosters[i]!) : 'TBD'));
    expect(half.title).toBe(`${names[0]} vs ${names[1]}`);
    expect(half.resource_version).toBeGreaterThan(early.resource_version);

    // Both feeders over: both sides named, before the final starts.
    service.clock.set(new Date(second!.end + 1000));
    expect(second!.end + 1000).toBeLessThan(final.start);
    const known = await ok(service, `/series/${final.id}`);
    expect(known.participants.map((p: any) => p.roster.id)).toEqual(final.rosters);
    expect(known.title).toBe(`${teamOf(final.rosters[0]!)} vs ${teamOf(final.rosters[1]!)}`);
    expect(known.lifecycle).toBe('upcoming');
    const rosters = await ok(service, `/series/${final.id}/rosters`);
    expect(rosters.map((r: any) => r.id).sort()).toEqual([...final.rosters].sort());
    expect(secondSlot).toBe(1 - firstSlot);
  });

  it("a bracket's first round is TBD until the group stage is over", async () => {
    const world = service.world;
    const plans = world.window(INSTANT.getTime()).series;
    const opener = plans.find(
      (p) =>
        p.bracket?.part === 'UB' &&
        p.bracket.col === 1 &&
        p.kind !== 'battle-royale' &&
        p.start > INSTANT.getTime(),
    )!;
    const groupEnd = Math.max(
      ...plans
        .filter(
          (p) =>
            p.tournament.id === opener.tournament.id && p.substage.stage.order === 1 && p.deletedAt === null,
        )
        .map((p) => p.end),
    );
    service.clock.set(new Date(groupEnd - 1000));
    expect((await ok(service, `/series/${opener.id}`)).participants).toEqual([]);
    const participants = await ok(service, `/tournaments/${opener.tournament.id}/participants`);
    expect(participants.phase_participants.final ?? []).toEqual([]);
    service.clock.set(new Date(groupEnd));
    const after = await ok(service, `/series/${opener.id}`);
    expect(after.participants.map((p: any) => p.roster.id)).toEqual(opener.rosters);
    const bracket = await ok(service, `/substages/${opener.substage.id}`);
    expect(bracket.rosters.length).toBeGreaterThanOrEqual(4);
    // A group-stage series names its teams from the start.
    const group = plans.find(
      (p) => p.substage.stage.order === 1 && p.kind !== 'battle-royale' && p.deletedAt === null,
    )!;
    service.clock.set(new Date(group.start - 3600_000));
    expect((await get(service, `/series/${group.id}`)).body.participants).toHaveLength(2);
  });
});
