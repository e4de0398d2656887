import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIS, call, type Stack, startStack, tenantWith } from './helpers.ts';
import { byStartThenId, matchupOf, teamNameOf, worldSeries } from './truth.ts';

let stack: Stack;
describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });

  describe('/casters', () => {
    it("lists a series' casters with the primary first, platform, online state and viewers", async () => {
      const world = stack.service.world;
      const t = world.now();
      const series = worldSeries(world)
        .filter(
          (s) =>
            s.lifecycle === 'upcoming' &&
            s.casters.length > 1 &&
            s.casters.some((c) => c.primary) &&
            !s.casters[0]!.primary,
        )
        .concat(
          worldSeries(world).filter(
            (s) => s.lifecycle === 'upcoming' && s.casters.length > 1 && s.casters.some((c) => c.primary),
          ),
        )[0]!;
      const result = await call(stack, 'casters', { series: String(series.id) });
      expect(result.outcome).toBe('ok');
      const card = result.reply.cards[0]!;
      expect(card.title).toBe(`Casters · ${matchupOf(world, series)}`);
      // Caster lines, then one line per broadcast (its language).
      const lines = card.description!.slice(1).filter((l) => l[0] !== 'Broadcast · ');
      expect(lines).toHaveLength(series.casters.length);
      const primary = world.catalog.casterById.get(series.casters.find((c) => c.primary)!.caster.id)!;
      const firstName = lines[0]!.find((s) => typeof s === 'object' && 'text' in s) as { text: string };
      expect(firstName.text).toBe(primary.display_name);
      for (const entry of series.casters) {
        const caster = world.casterAt(world.catalog.casterById.get(entry.caster.id)!, t);
        const line = lines.find((l) =>
          l.some((s) => typeof s === 'object' && 'text' in s && s.text === caster.display_name),
        )!;
        const text = line
          .map((s) => (typeof s === 'string' ? s : 'text' in s ? s.text : 'label' in s ? s.label : ''))
          .join('');
        expect(text).toContain(caster.stream.platform.name);
        expect(text).toContain(
          caster.stream.online
            ? `online, ${caster.stream.viewer_count.toLocaleString('en')} viewers`
            : 'offline',
        );
      }
    });

    it('never says "online, N viewers" for a finished series (its casters may be live elsewhere)', async () => {
      const world = stack.service.world;
      const t = world.now();
      // A finished series whose caster is online right now with another series: the old card said
      // "online, 20,979 viewers" under a result.
      const finished = worldSeries(world).filter((s) => s.lifecycle === 'over' && s.casters.length > 0);
      const busyElsewhere = finished.find((s) =>
        s.casters.some((e) => world.casterAt(world.catalog.casterById.get(e.caster.id)!, t).stream.online),
      );
      const series = busyElsewhere ?? finished[0]!;
      const result = await call(stack, 'casters', { series: String(series.id) });
      expect(result.outcome).toBe('ok');
      const card = result.reply.cards[0]!;
      const text = card
        .description!.slice(1)
        .filter((l) => l[0] !== 'Broadcast · ')
        .map((line) =>
          line
            .map((s) => (typeof s === 'string' ? s : 'text' in s ? s.text : 'label' in s ? s.label : ''))
            .join(''),
        );
      expect(text).toHaveLength(series.casters.length);
      for (const line of text) {
        expect(line).toContain('series over');
        expect(line).not.toMatch(/online|viewers/);
      }
      expect(card.buttons ?? []).toEqual([]);
    });

    it("defaults to a team's live or next series, and costs at most 3 requests cold, none warm", async () => {
      const world = stack.service.world;
      const team = world.catalog.teams[2]!;
      const rosters = [...world.catalog.rosterById.values()]
        .filter((r) => r.team.id === team.id)
        .map((r) => r.id);
      const next = worldSeries(world)
        .filter(
          (s) =>
            ['live', 'upcoming'].includes(s.lifecycle) &&
            s.participants.some((p) => rosters.includes(p.roster.id)),
        )
        .sort(byStartThenId)[0]!;
      const tenant = await tenantWith(stack);
      const cold = await call(stack, 'casters', { team: team.name }, { tenant });
      const warm = await call(stack, 'casters', { team: team.name }, { tenant });
      expect(cold.reply.cards[0]!.footer).toContain(`Series ${next.id}`);
      expect(cold.upstream).toBeLessThanOrEqual(3);
      expect(warm.upstream).toBe(0);
    });
  });

  describe('/tournament', () => {
    it('shows dates, tier, prize pool, stages with their substages, and the participants', async () => {
      const world = stack.service.world;
      const t = world.now();
      const plan = world.window(t).tournaments.find((x) => x.tier === 1 && x.start <= t && x.end >= t)!;
      const tournament = world.tournamentAt(plan);
      const participants = world.participantsOf(plan);
      const tenant = await tenantWith(stack);
      const result = await call(stack, 'tournament', { tournament: tournament.title }, { tenant });
      expect(result.outcome).toBe('ok');
      const card = result.reply.cards[0]!;
      expect(card.title).toBe(tournament.title);
      expect(result.text).toContain(`Tier: ${tournament.tier}`);
      if (tournament.string_prize_pool.total)
        expect(result.text).toContain(tournament.string_prize_pool.total);
      for (const stage of plan.stages) {
        expect(result.text).toContain(stage.title);
        for (const sub of stage.substages) expect(result.text).toContain(sub.title);
      }
      const field = card.fields!.find((f) => f.name.startsWith('Participants'))!;
      expect(field.name).toBe(`Participants (${participants.confirmed_participants.length})`);
      for (const p of participants.confirmed_participants.slice(0, 5))
        expect(result.text).toContain(teamNameOf(world, p.roster.id));
      const times = card.description!.flat().filter((s) => typeof s === 'object' && 'time' in s) as {
        time: Date;
      }[];
      expect(times.map((s) => s.time.toISOString())).toEqual([tournament.start, tournament.end]);
      expect(result.upstream).toBeLessThanOrEqual(3);
      const warm = await call(stack, 'tournament', { tournament: tournament.title }, { tenant });
      expect(warm.upstream).toBe(0);
    });

    it('suggests the closest tournament for a misspelt name', async () => {
      const world = stack.service.world;
      const t = world.now();
      const plan = world.window(t).tournaments.find((x) => x.tier === 1 && x.start <= t && x.end >= t)!;
      const misspelt = `${plan.title.slice(0, -2)}Q9`;
      const typo = await call(stack, 'tournament', { tournament: misspelt });
      expect(typo.outcome).toBe('ok');
      expect(typo.text).toContain(`No tournament is called "${misspelt}"; showing ${plan.title} (`);
      expect(typo.reply.cards[0]!.title).toBe(plan.title);
      const far = await call(stack, 'tournament', { tournament: `${plan.title.slice(0, -6)}QQQQQQ` });
      expect(far.outcome).toBe('user-error');
      expect(far.code).toBe('UNKNOWN_TOURNAMENT');
      expect(far.text).toContain('Did you mean');
    });
  });
});
