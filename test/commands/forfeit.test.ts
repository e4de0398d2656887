/**
 * A forfeited series reads as a forfeit (who forfeited, who wins) on every
 * platform, in /series, /team, /live, /schedule, the result card and the digest; never as maps
 * played 0–0 and "won", nor as a 2–0 scoreline no map produced. The spec's representation
 * (lifecycle `over-forfeited`; participants' `forfeit` and `winner`) is what the
 * local service serves and what the formatters read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Reply, replyText } from '../../src/bot/reply.ts';
import type { Platform } from '../../src/core/tenant-id.ts';
import { translator } from '../../src/i18n/i18n.ts';
import { digestReply, liveReply, resultReply } from '../../src/notify/cards.ts';
import { renderReply as renderDiscord } from '../../src/platforms/discord/render.ts';
import { renderReply as renderSlack } from '../../src/platforms/slack/render.ts';
import { renderReply as renderTerminal } from '../../src/platforms/terminal/render.ts';
import type { Match, Series } from '../../src/protocol/types.ts';
import { APIS, call, type Stack, startStack, tenantWith } from './helpers.ts';
import { teamNameOf, worldSeries } from './truth.ts';

let stack: Stack;
describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const PLATFORMS: Platform[] = ['terminal', 'discord', 'slack'];

  function rendered(reply: Reply, platform: Platform): string {
    if (platform === 'terminal')
      return renderTerminal(reply, { colour: false, timezone: 'UTC', now: stack.clock.now() });
    return JSON.stringify(platform === 'discord' ? renderDiscord(reply) : renderSlack(reply));
  }

  /** The most recent forfeited head-to-head series of tiers 1-2 (what the default tenant follows). */
  function forfeited(): { series: Series; quitter: string; winner: string; home: string; away: string } {
    const world = stack.service.world;
    const series = worldSeries(world)
      .filter((s) => s.lifecycle === 'over-forfeited' && s.tier <= 2 && s.participants.length === 2)
      .sort((a, b) => Date.parse(b.end!) - Date.parse(a.end!))[0]!;
    expect(series, 'the world has a forfeit at the frozen instant').toBeDefined();
    const [home, away] = [...series.participants].sort((a, b) => a.seed - b.seed);
    const name = (p: Series['participants'][number]) => teamNameOf(world, p.roster.id);
    const quitter = series.participants.find((p) => p.forfeit)!;
    const winner = series.participants.find((p) => p.winner)!;
    expect(quitter).toBeDefined();
    expect(winner).toBeDefined();
    return {
      series,
      quitter: name(quitter),
      winner: name(winner),
      home: name(home!),
      away: name(away!),
    };
  }

  /** What a forfeit must say (in a whole reply, which may list other series of the same teams). */
  function expectForfeitSaid(text: string, f: ReturnType<typeof forfeited>, where: string) {
    expect(text, where).toMatch(new RegExp(`${f.quitter}\\W{0,4} \\(?forfeited`));
  }

  /** What a forfeit must say, and what it must never say, in any rendering of it. */
  function expectForfeit(text: string, f: ReturnType<typeof forfeited>, where: string) {
    // "A forfeited, B win" where results are shown, and inside a spoiler: who won is said in words.
    expect(text, where).toMatch(new RegExp(`${f.quitter}\\W{0,4} \\(?forfeited`));
    expect(text, where).toMatch(new RegExp(`${f.winner}\\W{0,4} win`));
    // No scoreline between the two teams (the service awards the winner a majority of maps).
    expect(text, where).not.toMatch(new RegExp(`${f.home}\\W*\\s\\d+–\\d+\\s\\W*${f.away}`));
    expect(text, where).not.toMatch(/\b0–0\b/);
  }

  describe('a forfeited series', () => {
    it('reads as a forfeit in /live, with no maps listed, on every platform', async () => {
      const f = forfeited();
      for (const platform of PLATFORMS) {
        const tenant = await tenantWith(stack, {}, platform);
        const result = await call(stack, 'live', { series: String(f.series.id) }, { tenant, platform });
        expect(result.outcome, result.text).toBe('ok');
        const text = rendered(result.reply, platform);
        expectForfeit(text, f, `/live on ${platform}`);
        expect(text, `/live on ${platform}`).not.toMatch(/Game \d/);
        expect(text, `/live on ${platform}`).not.toContain('Now:');
      }
    });

    it("reads as a forfeit in /team's recent series and in /schedule of its day", async () => {
      const f = forfeited();
      const day = f.series.start!.slice(0, 10);
      for (const platform of PLATFORMS) {
        const tenant = await tenantWith(stack, {}, platform);
        const team = await call(stack, 'team', { team: f.quitter, count: 10 }, { tenant, platform });
        expect(team.outcome, team.text).toBe('ok');
        // The recent line of the forfeit (dated by its end; replyText shows instants as ISO).
        const line = team.text.split('\n').find((l) => l.startsWith(f.series.end!) && l.includes(f.away));
        expect(line, `/team ${f.quitter} lists the forfeit`).toBeDefined();
        expectForfeit(line!, f, `/team on ${platform}`);
        expectForfeitSaid(rendered(team.reply, platform), f, `/team rendered on ${platform}`);

        // The page of the day that holds the forfeit: page through until it shows.
        let found: string | undefined;
        for (let page = 1; page <= 10 && !found; page++) {
          const schedule = await call(stack, 'schedule', { day, page }, { tenant, platform });
          expect(schedule.outcome, schedule.text).toBe('ok');
          found = schedule.text
            .split('\n')
            .find((l) => l.startsWith(f.series.start!) && l.includes(f.home) && l.includes(f.away));
          if (found) expectForfeitSaid(rendered(schedule.reply, platform), f, `/schedule on ${platform}`);
        }
        expect(found, `/schedule day:${day} lists the forfeit`).toBeDefined();
        expectForfeit(found!, f, `/schedule line on ${platform}`);
      }
    });

    it('reads as a forfeit in the result card, the final live card and the digest, under every spoiler policy', async () => {
      const f = forfeited();
      const data = stack.client.forCaller({ priority: 'interactive', deadlineMs: 5000 });
      const matches = (await data.matches.list({
        filter: [['series.id', '=', f.series.id]],
        order: 'order-asc',
        take: 50,
      })) as Match[];
      // The service closes the unplayed maps as forfeited: they are there to be misread.
      expect(matches.length).toBeGreaterThan(0);
      expect(matches.every((m) => m.lifecycle === 'over-forfeited')).toBe(true);
      await stack.names.ensureSeriesLabels(data, [f.series]);
      const show = { spoilers: 'show' as const, t: translator('en') };
      const replies: Record<string, Reply> = {
        result: resultReply(f.series, stack.names, show),
        'final live card': liveReply(f.series, stack.names, show, {
          matches,
          mapName: (id) => stack.names.mapName(id),
          first: false,
        }),
        digest: digestReply([f.series], stack.names, show, f.series.start!.slice(0, 10)),
      };
      for (const [name, reply] of Object.entries(replies))
        for (const platform of PLATFORMS) {
          const text = rendered(reply, platform);
          expectForfeit(text, f, `${name} on ${platform}`);
          expect(text, `${name} on ${platform}`).not.toMatch(/Game \d/);
        }
      // Under `spoiler` the verdict (who forfeited, who wins) is inside the spoiler; under `hide`, absent.
      const spoiler = resultReply(f.series, stack.names, { spoilers: 'spoiler', t: translator('en') });
      expect(replyText(spoiler)).not.toContain('forfeited');
      expect(replyText(spoiler, true)).toContain(`${f.quitter} forfeited, ${f.winner} win`);
      const hidden = liveReply(
        f.series,
        stack.names,
        { spoilers: 'hide', t: translator('en') },
        { matches, first: false },
      );
      expect(replyText(hidden, true)).not.toContain('forfeit');
      // A separator before the words, which italics alone would not show in plain text.
      expect(replyText(hidden, true)).toContain(`${f.home} vs ${f.away} · result hidden`);
    });
  });
});
