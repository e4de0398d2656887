import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gameTag, type SeriesLabels, seriesCard, tenantPlace } from '../../src/bot/format.ts';
import { liveCard } from '../../src/bot/format-live.ts';
import { scheduleCards } from '../../src/bot/format-schedule.ts';
import { replyText } from '../../src/bot/reply.ts';
import { translator } from '../../src/i18n/i18n.ts';
import { APIS, type Stack, startStack } from './helpers.ts';
import { byStartThenId, worldSeries } from './truth.ts';

let stack: Stack;
describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** The name index's labels, except that no game is known. */
  function withoutGames(): SeriesLabels {
    return {
      teamOfRoster: (id) => stack.names.teamOfRoster(id),
      tournament: (id) => stack.names.tournament(id),
      substage: (id) => stack.names.substage(id),
      game: () => undefined,
    };
  }

  describe('cards when the labels lack the game', () => {
    it('leave the game tag out instead of a made-up "Game <id>" that reads like a map number', () => {
      const world = stack.service.world;
      const all = worldSeries(world).sort(byStartThenId);
      const live = all.find((s) => s.lifecycle === 'live' && s.participants.length === 2)!;
      const upcoming = all.filter((s) => s.lifecycle === 'upcoming').slice(0, 5);
      expect(live).toBeDefined();
      const labels = withoutGames();
      expect(gameTag(labels, live.game.id)).toBe('');
      const cards = [
        seriesCard(live, labels, { spoilers: 'show', t: translator('en') }),
        liveCard(live, labels, { spoilers: 'show', t: translator('en') }),
        ...scheduleCards(upcoming, labels, { spoilers: 'show', t: translator('en'), title: 'Today' }),
      ];
      const text = replyText({ cards });
      expect(text).not.toMatch(/\bGame \d/);
      expect(text).not.toMatch(/· ·|\(\)| · $/m);
      // The rest of the line is intact: tournament, format and tier.
      const tournament = stack.names.tournament(live.tournament.id)!;
      expect(text).toContain(`${tournament.short_title || tournament.title}`);
      expect(text).toMatch(new RegExp(`· Bo${live.best_of} · tier ${live.tier}`));
      // With the game known, the tag is there.
      const known = replyText({
        cards: [seriesCard(live, stack.names, { spoilers: 'show', t: translator('en') })],
      });
      expect(known).toContain(
        ` · ${stack.names.game(live.game.id)!.abbreviation.toUpperCase()} · Bo${live.best_of}`,
      );
    });
  });

  describe('tenantPlace', () => {
    it('names the tenant by its platform', () => {
      expect(tenantPlace('discord')).toEqual({ noun: 'server', here: 'this server' });
      expect(tenantPlace('slack')).toEqual({ noun: 'workspace', here: 'this workspace' });
      expect(tenantPlace('terminal')).toEqual({ noun: 'chat', here: 'this chat' });
    });
  });
});
