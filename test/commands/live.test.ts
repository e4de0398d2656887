import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentGame } from '../../commands/live.ts';
import { NEXT_UP } from '../../commands/shared.ts';
import { liveNow } from '../../src/bot/live-now.ts';
import { type Card, plainText, replyText } from '../../src/bot/reply.ts';
import { defaultSettings } from '../../src/bot/settings.ts';
import { translator } from '../../src/i18n/i18n.ts';
import { isMobaSummary, type LiveSummary } from '../../src/protocol/live-summary.ts';
import type { Series } from '../../src/protocol/types.ts';
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

  describe('/live', () => {
    it("shows every live series of the tenant's tiers (up to 5) in start order with its running series score", async () => {
      const world = stack.service.world;
      const tiers = defaultSettings().tiers;
      const live = worldSeries(world)
        .filter((s) => s.lifecycle === 'live' && tiers.includes(s.tier))
        .sort(byStartThenId);
      expect(live.length).toBeGreaterThan(0);
      const result = await call(stack, 'live');
      expect(result.outcome).toBe('ok');
      // The overview leaves the summaries' details out (length) and says where to find them.
      expect(result.text).not.toMatch(/Gold lead|Towers destroyed|Economy|Supply|Possession/);
      const shown = live.slice(0, 5);
      // Cold, without a feed: the series, their matches, their casters, and each shown current game's summary.
      expect(result.upstream).toBeLessThanOrEqual(3 + shown.length);
      // The last series card says where the details are; past 5 a card says how many more.
      expect(moreOf(result.reply.cards[shown.length - 1]!)).toContain('/live series:');
      expect(result.reply.cards).toHaveLength(shown.length + (live.length > 5 ? 1 : 0));
      shown.forEach((s, i) => {
        const card = result.reply.cards[i]!;
        expect(card.footer).toMatch(new RegExp(`^Series ${s.id}`));
        if (s.participants.length === 2) {
          expect(card.title).toBe(matchupOf(world, s));
          const [home, away] = [...s.participants].sort((a, b) => a.seed - b.seed);
          // The running score is live information: shown even though it is a score.
          expect(result.text).toContain(
            `${teamNameOf(world, home!.roster.id)} ${home!.score}–${away!.score} ${teamNameOf(world, away!.roster.id)}`,
          );
        }
      });
    });

    it('says how many more series are live than the overview shows, and where to see them', async () => {
      const live = worldSeries(stack.service.world).filter((s) => s.lifecycle === 'live');
      expect(live.length).toBeGreaterThan(5);
      const tenant = await tenantWith(stack, { tiers: [1, 2, 3, 4] });
      const result = await call(stack, 'live', {}, { tenant });
      expect(result.outcome).toBe('ok');
      const cards = result.reply.cards;
      expect(cards).toHaveLength(6);
      expect(cards[5]!.title).toBe(`And ${live.length - 5} more live series`);
      expect(result.text).toContain('/series when:live lists them all');
      // Five or fewer: no such line.
      const few = await call(stack, 'live', { game: stack.service.world.catalog.games[0]!.game.title });
      expect(few.reply.cards.length).toBeLessThanOrEqual(5);
      expect(few.text).not.toContain('more live series');
    });

    it("shows one series' current game with its map, earlier maps, the live summary's highlights and its streams, in 4 requests", async () => {
      const world = stack.service.world;
      const t = world.now();
      // A head-to-head with streams and live coverage: the series, its matches, the summary and the casters.
      const series = worldSeries(world)
        .filter((s) => s.lifecycle === 'live' && s.participants.length === 2 && s.casters.length > 0)
        .sort(byStartThenId)
        .find((s) => {
          const plan = world.seriesPlan(s.id)!;
          return (
            currentGame(s) !== undefined &&
            plan.matches.some((m) => world.matchLifecycle(plan, m, t) === 'live')
          );
        })!;
      expect(series).toBeDefined();
      const plan = world.seriesPlan(series.id)!;
      const current = plan.matches.find((m) => world.matchLifecycle(plan, m, t) === 'live')!;
      // The current game derived from the refs and scores is the one the world plays.
      expect(currentGame(series)!.matchId).toBe(current.id);
      const tenant = await tenantWith(stack, { spoilers: 'hide' });
      const result = await call(stack, 'live', { series: String(series.id) }, { tenant });
      expect(result.outcome).toBe('ok');
      expect(result.upstream).toBeLessThanOrEqual(4);
      const card = result.reply.cards[0]!;
      const now = card.fields!.find((f) => f.name.startsWith('Now:'))!;
      // At least what the overview shows: the map being played and every earlier map's result.
      expect(now.name).toMatch(new RegExp(`^Now: game ${current.order} · \\S`));
      for (let order = 1; order < current.order; order++)
        expect(card.fields!.some((f) => f.name.startsWith(`Game ${order} · `))).toBe(true);
      // The current game's score and clock come from the live summary (read independently here),
      // in the clear even under "hide", in the game's own words.
      const source = currentGame(series)!.source;
      const summary = (
        source === 'cv'
          ? await stack.truth.matches.liveCv(current.id)
          : await stack.truth.matches.liveApi(current.id)
      ) as LiveSummary;
      const [home, away] = [...series.participants].sort((a, b) => a.seed - b.seed);
      const homeName = teamNameOf(world, home!.roster.id);
      const awayName = teamNameOf(world, away!.roster.id);
      const expected = liveNow(summary, (id) => teamNameOf(world, id), translator('en'));
      expect(replyText({ cards: [{ title: '', description: [now.value] }] }).trim()).toBe(expected.line);
      const scores = world.matchScores(plan, current, t);
      if (plan.kind !== 'rts')
        expect(expected.line).toContain(`${homeName} ${scores[0]}–${scores[1]} ${awayName} (`);
      if (isMobaSummary(summary) && 'seed_indexed_state' in summary) {
        const { home: h } = summary.seed_indexed_state.teams;
        // Each side's net worth lead is over the other: home's is the lead itself.
        const lead = h.state.net_worth_lead;
        const gold = card.fields!.find((f) => f.name === 'Gold lead')!;
        expect(replyText({ cards: [{ title: '', description: [gold.value] }] }).trim()).toBe(
          lead === 0 ? 'even' : `${lead > 0 ? homeName : awayName} +${Math.abs(lead).toLocaleString('en')}`,
        );
        expect(card.fields!.map((f) => f.name)).toContain('Towers destroyed');
      }
      // Cold as warm, the streams are read with the rest: no pointer to /casters instead.
      expect(card.fields!.filter((f) => f.name.startsWith('Stream: ')).length).toBeGreaterThan(0);
      expect(moreOf(card) ?? '').not.toContain('Streams: /casters');
      const warm = await call(stack, 'live', { series: String(series.id) }, { tenant });
      expect(warm.upstream).toBe(0);
    });

    it('names the current map and earlier maps when the budget leaves room for the matches', async () => {
      const world = stack.service.world;
      const t = world.now();
      // Without streams (or without a summary to read) the matches fit in the budget.
      const series = worldSeries(world)
        .filter((s) => s.lifecycle === 'live' && (s.casters.length === 0 || currentGame(s) === undefined))
        .sort(byStartThenId)
        .find((s) => {
          const plan = world.seriesPlan(s.id)!;
          return plan.matches.some((m) => world.matchLifecycle(plan, m, t) === 'live');
        })!;
      expect(series).toBeDefined();
      const plan = world.seriesPlan(series.id)!;
      const maps = world.catalog.game(series.game.id)!.maps;
      const mapOf = (id: number) => maps.find((m) => m.id === id)!.name;
      const current = plan.matches.find((m) => world.matchLifecycle(plan, m, t) === 'live')!;
      const result = await call(stack, 'live', { series: String(series.id) });
      expect(result.outcome).toBe('ok');
      expect(result.upstream).toBeLessThanOrEqual(3);
      const card = result.reply.cards[0]!;
      expect(card.fields!.map((f) => f.name)).toContain(`Now: game ${current.order} · ${mapOf(current.map)}`);
      for (const m of plan.matches.filter((x) => world.matchLifecycle(plan, x, t) === 'over'))
        expect(card.fields!.map((f) => f.name)).toContain(`Game ${m.order} · ${mapOf(m.map)}`);
    });

    it('says plainly when nothing is live, offers the next series with their start times, and answers an unknown series id as a user error', async () => {
      const world = stack.service.world;
      const tiers = defaultSettings().tiers;
      const all = worldSeries(world);
      const liveGames = new Set(
        all.filter((s) => s.lifecycle === 'live' && tiers.includes(s.tier)).map((s) => s.game.id),
      );
      const idle = world.catalog.games.find((g) => !liveGames.has(g.game.id))!;
      expect(idle).toBeDefined();
      const next = all
        .filter((s) => s.lifecycle === 'upcoming' && s.game.id === idle.game.id && tiers.includes(s.tier))
        .sort(byStartThenId)
        .slice(0, NEXT_UP);
      expect(next.length).toBeGreaterThan(0);
      const checkNext = (result: Awaited<ReturnType<typeof call>>) => {
        expect(result.outcome).toBe('ok');
        expect(result.upstream).toBeLessThanOrEqual(3);
        expect(result.text).toContain(
          `No series is live right now for ${idle.game.abbreviation.toUpperCase()}`,
        );
        expect(result.text).not.toContain('LIVE');
        const lines = result.reply.cards[0]!.description!.slice(2);
        expect(lines).toHaveLength(next.length);
        next.forEach((s: Series, i) => {
          const line = lines[i]!;
          const time = line.find((span) => typeof span === 'object' && 'time' in span) as { time: Date };
          expect(time.time.toISOString()).toBe(s.start);
          // A lobby (battle royale) is named by its first three teams and a count.
          const teams = matchupOf(world, s).split(' vs ');
          const who =
            teams.length > 2
              ? `${teams.slice(0, 3).join(', ')} and ${teams.length - 3} more`
              : teams.join(' vs ');
          expect(line).toContainEqual({ text: who, bold: true });
        });
      };
      checkNext(await call(stack, 'live', { game: idle.game.title }));
      checkNext(await call(stack, 'series', { when: 'live', game: idle.game.title }));
      const missing = await call(stack, 'live', { series: '999999999' });
      expect(missing.outcome).toBe('user-error');
      expect(missing.message).toContain('There is no series 999999999');
    });
  });
});

/** A card's pointers to other commands (its "More" field), as plain text. */
function moreOf(card: Card): string {
  return plainText(card.fields?.find((f) => f.name === 'More')?.value ?? []);
}
