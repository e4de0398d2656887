/**
 * `/series series:<id>` (and `/series <id>` typed) shows one series with its
 * match preview: both teams' last five results with opponents, their head-to-head record, the
 * stage and what is at stake, streams with their languages. Checked against the world's truth
 * (the local service's own plans), under each spoiler policy, and with teams not known yet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import { readPreview } from '../../src/bot/preview.ts';
import type { Reply } from '../../src/bot/reply.ts';
import { parseCommandText } from '../../src/bot/text-args.ts';
import { renderReply as discordReply } from '../../src/platforms/discord/render.ts';
import { renderReply as slackReply } from '../../src/platforms/slack/render.ts';
import { renderReply as terminalReply } from '../../src/platforms/terminal/render.ts';
import type { Series } from '../../src/protocol/types.ts';
import { createReads } from '../../src/reads/reads.ts';
import type { SeriesPlan } from '../../src/service/schedule.ts';
import { APIS, call, type Stack, startStack, tenantWith } from './helpers.ts';
import { byEndDescThenId, byStartThenId, FINISHED, teamNameOf, worldSeries } from './truth.ts';

let stack: Stack;

/** The rosters of the team a roster belongs to (every lineup of it), from the world's catalogue. */
function teamRosters(rosterId: number): number[] {
  const catalog = stack.service.world.catalog;
  const team = catalog.rosterById.get(rosterId)!.team.id;
  return catalog.rosters.filter((r) => r.team.id === team).map((r) => r.id);
}

/** A team's last five finished series in the world, as the preview writes them. */
function expectedForm(all: Series[], rosterId: number, except: number): string {
  const rosters = teamRosters(rosterId);
  return all
    .filter((s) => FINISHED.includes(s.lifecycle) && s.id !== except)
    .filter((s) => s.participants.some((p) => rosters.includes(p.roster.id)))
    .sort(byEndDescThenId)
    .slice(0, 5)
    .map((s) => {
      const own = s.participants.find((p) => rosters.includes(p.roster.id))!;
      const other = s.participants.find((p) => p !== own)!;
      const opponent = teamNameOf(stack.service.world, other.roster.id);
      const mark = own.winner ? 'W' : 'L';
      return s.lifecycle === 'over-forfeited' || s.participants.some((p) => p.forfeit)
        ? `${mark} forfeit vs ${opponent}`
        : `${mark} ${own.score}–${other.score} ${opponent}`;
    })
    .join(' · ');
}

/** "upper-bracket round 2", "the lower-bracket final", from the world's plans of the substage. */
/** A reply as each platform renders it: terminal text, the Discord messages and the Slack message. */
function rendered(reply: Reply): Record<'terminal' | 'discord' | 'slack', string> {
  return {
    terminal: terminalReply(reply, { timezone: 'UTC', colour: false, width: 200 }),
    discord: JSON.stringify(discordReply(reply)),
    slack: JSON.stringify(slackReply(reply)),
  };
}

function roundOf(plan: SeriesPlan, plans: SeriesPlan[]): string {
  const b = plan.bracket!;
  if (b.part === 'GF') return 'the grand final';
  const cols = plans.filter((p) => p.bracket?.part === b.part).map((p) => p.bracket!.col);
  const part = b.part === 'UB' ? 'upper-bracket' : 'lower-bracket';
  if (b.col === Math.max(...cols) && b.col > Math.min(...cols)) return `the ${part} final`;
  return `${part} round ${b.col - Math.min(...cols) + 1}`;
}

describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('reads /series <id> typed as the series, and /series live still as when', () => {
    expect(parseCommandText('/series 1367600112', commands).args).toEqual({ series: '1367600112' });
    expect(parseCommandText('/series live', commands).args).toEqual({ when: 'live' });
    expect(parseCommandText('/series recent 3', commands).args).toMatchObject({ when: 'recent' });
  });

  it("shows both teams' last five results and their head-to-head as the world has them", async () => {
    const world = stack.service.world;
    const all = worldSeries(world).sort(byStartThenId);
    const series = all.find(
      (s) =>
        s.lifecycle === 'upcoming' &&
        s.tier <= 2 &&
        s.participants.length === 2 &&
        expectedForm(all, s.participants[0]!.roster.id, s.id).split(' · ').length === 5,
    )!;
    expect(series).toBeDefined();
    const tenant = await tenantWith(stack, { spoilers: 'show' });
    const result = await call(stack, 'series', { series: String(series.id) }, { tenant });
    expect(result.outcome, result.text).toBe('ok');
    const [home, away] = [...series.participants].sort((a, b) => a.seed - b.seed);
    for (const side of [home!, away!]) {
      const name = teamNameOf(world, side.roster.id);
      const form = expectedForm(all, side.roster.id, series.id);
      expect(result.text).toContain(`${name} form: ${form || 'no finished series on record'}`);
    }
    // Head-to-head: every finished meeting of the two teams (any lineup of each).
    const a = teamRosters(home!.roster.id);
    const b = teamRosters(away!.roster.id);
    const met = all.filter(
      (s) =>
        FINISHED.includes(s.lifecycle) &&
        s.participants.some((p) => a.includes(p.roster.id)) &&
        s.participants.some((p) => b.includes(p.roster.id)),
    );
    const aWins = met.filter((s) => s.participants.some((p) => p.winner && a.includes(p.roster.id))).length;
    const bWins = met.filter((s) => s.participants.some((p) => p.winner && b.includes(p.roster.id))).length;
    const homeName = teamNameOf(world, home!.roster.id);
    const awayName = teamNameOf(world, away!.roster.id);
    if (met.length === 0) expect(result.text).toContain('Head-to-head: first meeting on record');
    else
      expect(result.text).toContain(
        `Head-to-head: ${homeName} ${aWins}–${bWins} ${awayName} in ${met.length} series`,
      );
    expect(result.text).toContain(`Bo${series.best_of}`);
    expect(result.text).toContain(`Series ${series.id}`);
  });

  it('says what a bracket series decides, as the bracket sends its winner and loser on', async () => {
    const world = stack.service.world;
    const t = world.now();
    const tenant = await tenantWith(stack, { spoilers: 'show' });
    let checked = 0;
    for (const part of ['UB', 'LB', 'GF'] as const) {
      const plan = world
        .window(t)
        .series.filter(
          (p) =>
            p.bracket?.part === part &&
            p.kind !== 'battle-royale' &&
            ['upcoming', 'live'].includes(world.lifecycle(p, t)),
        )
        .sort((x, y) => x.start - y.start)[0];
      if (!plan) continue;
      const plans = world.window(t).bySubstage.get(plan.substage.id) ?? [];
      const result = await call(stack, 'series', { series: String(plan.id) }, { tenant });
      expect(result.outcome, result.text).toBe('ok');
      if (part === 'GF') {
        expect(result.text).toContain('At stake: winner is the champion; loser finishes 2nd');
      } else {
        const next = plans.filter((p) => p.chain.includes(plan.id));
        // The world's plan says where each goes: the loser's next series holds the planned loser.
        const loser = plan.rosters[1 - plan.winner]!;
        const winner = plan.rosters[plan.winner]!;
        const winnerTo = next.find((p) => p.rosters.includes(winner))!;
        const loserTo = next.find((p) => p !== winnerTo && p.rosters.includes(loser));
        expect(result.text).toContain(`winner to ${roundOf(winnerTo, plans)}`);
        if (loserTo) expect(result.text).toContain(`loser drops to ${roundOf(loserTo, plans)}`);
        else expect(result.text).toContain('loser is eliminated');
        // A lower-bracket loser is out: no series of the bracket takes them.
        if (part === 'LB') expect(loserTo).toBeUndefined();
      }
      expect(result.text).toContain(
        `Stage: ${world.substageAt(plan.substage, t).title} · ${roundOf(plan, plans).replace(/^the /, '')}`,
      );
      checked++;
    }
    // The frozen instant has an upper-bracket, a lower-bracket and a grand-final series to come.
    expect(checked).toBe(3);
  });

  it('names the series that decides a team not known yet, and never spoils who it will be', async () => {
    const world = stack.service.world;
    const t = world.now();
    const plan = world
      .window(t)
      .series.filter((p) => p.bracket?.part === 'GF' && p.revealAt.every((at) => at > t))
      .sort((x, y) => x.start - y.start)[0]!;
    expect(plan).toBeDefined();
    const tenant = await tenantWith(stack, { spoilers: 'show' });
    const result = await call(stack, 'series', { series: String(plan.id) }, { tenant });
    expect(result.outcome, result.text).toBe('ok');
    expect(result.text).toContain('TBD vs TBD');
    expect(result.text).toMatch(/TBD: winner of .*upper-bracket final/);
    expect(result.text).toMatch(/TBD: winner of .*lower-bracket final/);
    for (const roster of plan.rosters) expect(result.text).not.toContain(`${teamNameOf(world, roster)} form`);
    expect(result.text).not.toMatch(/undefined|NaN|\[object/);
  });

  it('hides form and head-to-head where results are hidden, and wraps them where they are spoilers', async () => {
    const world = stack.service.world;
    const all = worldSeries(world).sort(byStartThenId);
    const series = all.find(
      (s) =>
        s.lifecycle === 'upcoming' &&
        s.participants.length === 2 &&
        expectedForm(all, s.participants[0]!.roster.id, s.id) !== '',
    )!;
    const form = expectedForm(all, series.participants[0]!.roster.id, series.id);
    const hide = await call(
      stack,
      'series',
      { series: String(series.id) },
      { tenant: await tenantWith(stack, { spoilers: 'hide' }) },
    );
    expect(hide.text).toContain('Form and head-to-head are hidden by the spoiler policy here.');
    expect(hide.revealed).not.toContain(form);
    expect(hide.revealed).not.toContain('Head-to-head:');
    const spoiler = await call(
      stack,
      'series',
      { series: String(series.id) },
      { tenant: await tenantWith(stack, { spoilers: 'spoiler' }) },
    );
    expect(spoiler.text).not.toContain(form);
    expect(spoiler.text).toContain('form: [spoiler]');
    expect(spoiler.revealed).toContain(form);
  });

  it('under hide, no platform shows a result of the preview and form is not read; the default shows it', async () => {
    const world = stack.service.world;
    const all = worldSeries(world).sort(byStartThenId);
    const series = all.find(
      (s) =>
        s.lifecycle === 'upcoming' &&
        s.participants.length === 2 &&
        expectedForm(all, s.participants[0]!.roster.id, s.id).split(' · ').length === 5,
    )!;
    const entries = expectedForm(all, series.participants[0]!.roster.id, series.id).split(' · ');
    // "2–1 Nova Krakens": the score and opponent of each of the first team's last five.
    const results = entries.map((e) => e.replace(/^[WL] /, ''));
    const hide = await call(
      stack,
      'series',
      { series: String(series.id) },
      { tenant: await tenantWith(stack, { spoilers: 'hide' }) },
    );
    const shown = await call(
      stack,
      'series',
      { series: String(series.id) },
      { tenant: await tenantWith(stack, {}) },
    );
    expect(hide.outcome).toBe('ok');
    for (const [platform, text] of Object.entries(rendered(hide.reply))) {
      expect(text, platform).toContain('Form and head-to-head are hidden by the spoiler policy here.');
      expect(text, platform).not.toContain('Head-to-head');
      expect(text, platform).not.toMatch(/ form\b/);
      for (const result of results) expect(text, platform).not.toContain(result);
    }
    // Neither form nor head-to-head is read for a reader who would not see them.
    const asked: string[] = [];
    const reads = createReads(stack.client);
    const counted = {
      ...reads,
      series(wanted: Parameters<typeof reads.series>[0]) {
        asked.push('series');
        return reads.series(wanted);
      },
      between(a: readonly number[], b: readonly number[], take: number) {
        asked.push('between');
        return reads.between(a, b, take);
      },
    };
    const unread = await readPreview(series, counted, stack.names, async () => {}, { results: false });
    expect(asked).toEqual([]);
    expect(unread.sides.every((side) => side.form.length === 0)).toBe(true);
    expect(unread.headToHead).toBeUndefined();
    const teamName = teamNameOf(world, series.participants[0]!.roster.id);
    for (const [platform, text] of Object.entries(rendered(shown.reply))) {
      expect(text, platform).toContain(`${teamName} form`);
      expect(text, platform).toContain('Head-to-head');
    }
    expect(rendered(shown.reply).terminal).toContain(entries.join(' · '));
  });

  it('refuses an unknown series and a series given with list filters, saying what would be right', async () => {
    const missing = await call(stack, 'series', { series: '999999999' });
    expect(missing.outcome).toBe('user-error');
    expect(missing.text).toContain('There is no series 999999999');
    const mixed = await call(stack, 'series', { series: '123', when: 'live' });
    expect(mixed.outcome).toBe('user-error');
    expect(mixed.text).toContain('series: shows one series; when: lists several');
  });
});
