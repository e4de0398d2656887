/**
 * Golden output: what a fan reads. For a fixed seed and a frozen instant, the rendered reply of
 * every command and every notification kind, on every platform (terminal text, the Discord
 * message payload, the Slack Block Kit message), is compared with a reviewed snapshot file under
 * `__snapshots__/`. A change to any reply shows up as a diff that a reviewer reads as a fan would.
 *
 * Every command's golden reply is also rendered in each other language Matchday speaks (every
 * locale renders every command's golden reply), into `__snapshots__/<locale>/`; no reply
 * in any language may show a raw message key (`platform.render.reveal`) instead of words.
 *
 * Update after a deliberate change with `npx vitest run test/golden -u`, then read every changed
 * file before committing it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finalSubstage, readPlacements } from '../../src/bot/outcome.ts';
import { readPreview } from '../../src/bot/preview.ts';
import type { Reply } from '../../src/bot/reply.ts';
import { defaultSettings, type Settings } from '../../src/bot/settings.ts';
import type { Platform } from '../../src/core/tenant-id.ts';
import { LOCALES, type Locale, type Translate, translator } from '../../src/i18n/i18n.ts';
import {
  digestReply,
  liveReply,
  reminderReply,
  resultReply,
  tournamentEndReply,
} from '../../src/notify/cards.ts';
import { renderReply as renderDiscord } from '../../src/platforms/discord/render.ts';
import { renderReply as renderSlack } from '../../src/platforms/slack/render.ts';
import { renderReply as renderTerminal } from '../../src/platforms/terminal/render.ts';
import type { GameKind, LiveSummary } from '../../src/protocol/live-summary.ts';
import type { Caster, Match, Series } from '../../src/protocol/types.ts';
import { createReads } from '../../src/reads/reads.ts';
import { ADMIN, APIS, type Api, call, type Stack, startStack, tenantWith } from '../commands/helpers.ts';
import { pickLive } from '../commands/live-picks.ts';
import { byStartThenId, worldSeries } from '../commands/truth.ts';

let stack: Stack;
let api: Api;

const PLATFORMS: Platform[] = ['terminal', 'discord', 'slack'];
const KINDS: GameKind[] = ['moba', 'shooter', 'esoccer', 'rts', 'battle-royale'];

/** Binary attachments (rendered PNGs) are shown by size, not as thousands of numbers. */
function jsonOf(value: unknown): string {
  return `${JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (v instanceof Uint8Array) return `<${v.byteLength} bytes>`;
      if (v && typeof v === 'object' && (v as { type?: unknown }).type === 'Buffer' && 'data' in v)
        return `<${(v as { data: unknown[] }).data.length} bytes>`;
      return v;
    },
    2,
  )}\n`;
}

/** The reply as each platform would send it to a reader of `t`'s language. */
function rendered(
  reply: Reply,
  platform: Platform,
  timezone: string,
  t: Translate,
): { text: string; ext: string } {
  if (platform === 'terminal')
    return {
      text: `${renderTerminal(reply, { colour: false, timezone, now: stack.clock.now(), t })}\n`,
      ext: 'txt',
    };
  if (platform === 'discord') return { text: jsonOf(renderDiscord(reply, { t })), ext: 'json' };
  return { text: jsonOf(renderSlack(reply, { t })), ext: 'json' };
}

/** A message key shown as if it were words: a translation missing or a key mistyped. */
const RAW_KEY = /\b(commands|cards|platform|common)\.[a-zA-Z]/;

/** The languages besides English; English keeps the snapshots beside this file. */
const OTHER_LOCALES = LOCALES.filter((locale): locale is Exclude<Locale, 'en'> => locale !== 'en');

/**
 * The replies whose v2 rendering differs from v3's because the v2 data lacks something (each
 * difference is listed in docs/data-client.md, "What differs on v2"). Their v2 snapshot is a file of its own,
 * `<name>.v2.<platform>.<ext>`, beside the v3 one, so the difference reads as a diff of the two files.
 * Every other reply must render on v2 exactly as the v3 snapshot.
 */
const V2_OWN_SNAPSHOT = new Set<string>([
  'casters', // v2 casters: the watch URL the data has, no channel name; no broadcasters (languages)
  'live-overview', // the same stream lines, and watch buttons for the URLs
  'live-series', // a shooter: no economy line (v2 rounds carry no bank)
  'live-series-moba', // the stream lines with the watch URL
  'live-series-shooter',
  'live-series-esoccer', // no light summary a card can read: the match score only
  'live-series-rts',
  'live-series-battle-royale', // no placements: most kills; maps first seen after the names' refresh
  'notify-live-card', // as live-series / live-overview
  'notify-live-card-shooter',
  'notify-live-card-esoccer',
  'notify-live-card-rts',
  'notify-live-card-battle-royale',
  'notify-reminder', // stream lines with the watch URL
  'notify-reminder-preview',
  'series-detail', // the same stream lines; no broadcasts (languages)
  'standings-group', // no map or score difference: no Maps or Diff column
  'standings-lobby', // no kill counts (v2 series carry no statistics): no Kills column, a line says so
  'team', // no organisation, region (the country), player roles or social accounts
  'player', // the country for the region; no role or social accounts
  'tournament', // the country for the location; substages carry no best-of
  'tournament-over', // as tournament
]);

async function expectGolden(name: string, reply: Reply, platform: Platform, locale: Locale = 'en') {
  const { text, ext } = rendered(reply, platform, 'UTC', translator(locale));
  const file = api === 'v2' && V2_OWN_SNAPSHOT.has(name) ? `${name}.v2` : name;
  expect(text, `${name} on ${platform} in ${locale}: a raw message key`).not.toMatch(RAW_KEY);
  const folder = locale === 'en' ? '' : `${locale}/`;
  await expect(text).toMatchFileSnapshot(`./__snapshots__/${folder}${file}.${platform}.${ext}`);
}

/** Names picked from the world once, so every case reads a real team, tournament and series. */
function picks() {
  const world = stack.service.world;
  const t = world.now();
  const all = worldSeries(world).sort(byStartThenId);
  const live = all.filter((s) => s.lifecycle === 'live' && s.tier <= 2 && s.participants.length === 2);
  const liveSeries = live.find((s) => s.participants.some((p) => p.score > 0)) ?? live[0]!;
  const upcoming = all.find((s) => s.lifecycle === 'upcoming' && s.tier <= 2 && s.casters.length > 0)!;
  const finished = all
    .filter((s) => s.lifecycle === 'over' && s.tier <= 2 && s.participants.length === 2)
    .sort((a, b) => Date.parse(b.end!) - Date.parse(a.end!))[0]!;
  const team = world.catalog.teamById.get(
    world.catalog.rosterById.get(liveSeries.participants[0]!.roster.id)!.team.id,
  )!;
  // A running tier-1 tournament with a group that has results, and a tournament with a bracket
  // that has results (possibly the same).
  let group: { tournament: string; stage: string } | undefined;
  let bracket: { tournament: string; stage: string } | undefined;
  let lobby: { tournament: string; stage: string } | undefined;
  for (const tournament of world.window(t).tournaments) {
    for (const stage of tournament.stages)
      for (const sub of stage.substages) {
        const title = world.tournamentAt(tournament).title;
        if (!group && sub.type === 1 && tournament.start <= t && t <= tournament.end) {
          const substage = world.substageAt(sub, t);
          if (substage.standings.some((s) => s.wins > 0))
            group = { tournament: title, stage: substage.title };
        }
        // A running battle-royale tournament's lobby with points (a week ago's would share series
        // with the live card picked below, read at an earlier instant, through the same cache).
        if (
          !lobby &&
          sub.type === 3 &&
          tournament.start <= t &&
          t <= tournament.end &&
          world.substageAt(sub, t).standings.some((s) => s.points > 0)
        )
          lobby = { tournament: title, stage: world.substageAt(sub, t).title };
        if (!bracket && sub.type === 2) {
          const plans = world.window(t).bySubstage.get(sub.id) ?? [];
          if (plans.some((p) => ['over', 'over-forfeited'].includes(world.lifecycle(p, t))))
            bracket = { tournament: title, stage: world.substageAt(sub, t).title };
        }
      }
  }
  // A finished tier-1 tournament (its outcome: champion, places, prizes).
  const done = world.window(t).tournaments.find((x) => x.tier === 1 && x.end < t)!;
  const over = world.tournamentAt(done).title;
  // A player of that team, by the label `/team` offers for them (nick, team and game).
  const first = world.catalog.playerById.get(
    world.catalog.rosterById.get(team.standing_roster!.roster.id)!.line_up.players[0]!.id,
  )!;
  const player = `${first.nick_name} (${team.name}, ${world.catalog.game(team.game.id)!.game.abbreviation.toUpperCase()})`;
  return {
    liveSeries,
    upcoming,
    finished,
    team,
    player,
    group: group!,
    bracket: bracket!,
    lobby: lobby!,
    over,
    overId: done.id,
  };
}

interface Case {
  name: string;
  command: string;
  subcommand?: string;
  args?: Record<string, unknown>;
  settings?: Partial<Settings>;
}

function commandCases(): Case[] {
  const p = picks();
  return [
    { name: 'help', command: 'help' },
    { name: 'help-team', command: 'help', args: { command: 'team' } },
    { name: 'series-upcoming', command: 'series', args: { limit: 5 } },
    { name: 'series-live', command: 'series', args: { when: 'live', limit: 5 } },
    { name: 'series-recent', command: 'series', args: { when: 'recent', limit: 5 } },
    { name: 'series-detail', command: 'series', args: { series: String(p.upcoming.id) } },
    { name: 'live-overview', command: 'live' },
    { name: 'live-series', command: 'live', args: { series: String(p.liveSeries.id) } },
    { name: 'schedule', command: 'schedule' },
    { name: 'team', command: 'team', args: { team: p.team.name } },
    { name: 'player', command: 'player', args: { player: p.player } },
    {
      name: 'standings-group',
      command: 'standings',
      args: { tournament: p.group.tournament, stage: p.group.stage },
    },
    {
      name: 'standings-bracket',
      command: 'standings',
      args: { tournament: p.bracket.tournament, stage: p.bracket.stage },
    },
    {
      name: 'standings-lobby',
      command: 'standings',
      args: { tournament: p.lobby.tournament, stage: p.lobby.stage },
    },
    { name: 'casters', command: 'casters', args: { series: String(p.upcoming.id) } },
    { name: 'tournament', command: 'tournament', args: { tournament: p.group.tournament } },
    { name: 'tournament-over', command: 'tournament', args: { tournament: p.over } },
    { name: 'follow-list', command: 'follow', subcommand: 'list', settings: { follows: [p.team.id] } },
    { name: 'settings-show', command: 'settings', subcommand: 'show' },
  ];
}

describe.each(APIS)('on %s', (version) => {
  beforeAll(async () => {
    api = version;
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });

  describe('golden replies', () => {
    it('renders every command on every platform as the reviewed snapshot', async () => {
      for (const c of commandCases()) {
        for (const platform of PLATFORMS) {
          const tenant = await tenantWith(stack, c.settings ?? {}, platform);
          const result = await call(stack, c.command, c.args ?? {}, {
            tenant,
            platform,
            user: ADMIN,
            ...(c.subcommand ? { subcommand: c.subcommand } : {}),
          });
          // A golden reply is an answer, not an error: a failing case must not be frozen as "right".
          expect(result.outcome, `${c.name} on ${platform}: ${result.text}`).toBe('ok');
          await expectGolden(c.name, result.reply, platform);
        }
      }
    });

    it('renders every command on every platform in every other language, with no raw message key', async () => {
      for (const locale of OTHER_LOCALES)
        for (const c of commandCases())
          for (const platform of PLATFORMS) {
            const tenant = await tenantWith(stack, { ...c.settings, language: locale }, platform);
            const result = await call(stack, c.command, c.args ?? {}, {
              tenant,
              platform,
              user: ADMIN,
              ...(c.subcommand ? { subcommand: c.subcommand } : {}),
            });
            expect(result.outcome, `${c.name} on ${platform} in ${locale}: ${result.text}`).toBe('ok');
            await expectGolden(c.name, result.reply, platform, locale);
          }
    });

    it('renders every notification kind on every platform as the reviewed snapshot', async () => {
      const p = picks();
      const data = stack.client.forCaller({ priority: 'interactive', deadlineMs: 5000 });
      const casterIds = (s: Series) => s.casters.map((c) => c.caster.id);
      const [upcomingCasters, liveCasters, liveMatches] = await Promise.all([
        data.casters.getMany(casterIds(p.upcoming)) as Promise<Caster[]>,
        data.casters.getMany(casterIds(p.liveSeries)) as Promise<Caster[]>,
        data.matches.list({
          filter: [['series.id', '=', p.liveSeries.id]],
          order: 'order-asc',
          take: 50,
        }) as Promise<Match[]>,
      ]);
      const world = stack.service.world;
      const everySeries = worldSeries(world);
      const day = everySeries
        .filter(
          (s) => s.tier <= 2 && s.start!.slice(0, 10) === new Date(world.now()).toISOString().slice(0, 10),
        )
        .sort(byStartThenId);
      await stack.names.ensureSeriesLabels(data, [p.upcoming, p.liveSeries, p.finished, ...day]);
      const preview = await readPreview(p.upcoming, createReads(data), stack.names, (list) =>
        stack.names.ensureSeriesLabels(data, list),
      );
      // The tournament-end card of the finished tournament `/tournament` shows (tournament-over).
      const [tournament, stages] = await Promise.all([
        data.tournaments.get(p.overId),
        data.tournaments.stages(p.overId, { order: 'order-asc', take: 50 }),
      ]);
      const outcome = await readPlacements(data, tournament, finalSubstage(stages)!);
      await stack.names.ensureSeriesLabels(data, outcome.series);
      // Each notification in every language its readers may have chosen (English: the reviewed originals).
      for (const locale of LOCALES) {
        const audience = { spoilers: defaultSettings().spoilers, t: translator(locale) };
        const replies: Record<string, Reply> = {
          'tournament-end': tournamentEndReply(tournament, outcome.placements!, stack.names, audience),
          'tournament-end-spoiler': tournamentEndReply(tournament, outcome.placements!, stack.names, {
            ...audience,
            spoilers: 'spoiler',
          }),
          'tournament-end-hidden': tournamentEndReply(tournament, outcome.placements!, stack.names, {
            ...audience,
            spoilers: 'hide',
          }),
          reminder: reminderReply(p.upcoming, stack.names, audience, { lead: 15, casters: upcomingCasters }),
          'reminder-preview': reminderReply(p.upcoming, stack.names, audience, {
            lead: 60,
            casters: upcomingCasters,
            preview,
          }),
          'live-card': liveReply(p.liveSeries, stack.names, audience, {
            matches: liveMatches.filter((m) => m.deleted_at === null),
            casters: liveCasters,
            mapName: (id) => stack.names.mapName(id),
            first: true,
          }),
          result: resultReply(p.finished, stack.names, audience),
          digest: digestReply(
            day,
            stack.names,
            audience,
            new Date(world.now()).toISOString().slice(0, 10),
            (id) => everySeries.filter((s) => s.substage.id === id),
          ),
        };
        for (const [name, reply] of Object.entries(replies))
          for (const platform of PLATFORMS) await expectGolden(`notify-${name}`, reply, platform, locale);
      }
    });

    // Last: it moves the clock to a match of each kind of game.
    it("renders each kind of game's live card and /live answer in its own words, as the reviewed snapshot", async () => {
      const world = stack.service.world;
      const start = stack.clock.now();
      try {
        for (const kind of KINDS) {
          const p = pickLive(world, kind, start);
          await stack.jump(p.at);
          const data = stack.client.forCaller({ priority: 'interactive', deadlineMs: 5000 });
          const [series, matches, summary] = await Promise.all([
            data.series.get(p.plan.id),
            data.matches.list({ filter: [['series.id', '=', p.plan.id]], order: 'order-asc', take: 50 }),
            // On v2 only a MOBA's and a shooter's light summary can be read (the others answer
            // 404): the card then shows the match score, as the notifier's does.
            data.matches
              .liveApi(p.match.id)
              .catch((e: unknown) =>
                api === 'v2' && (e as Error).name === 'NotFoundError' ? undefined : Promise.reject(e),
              ),
          ]);
          await stack.names.ensureSeriesLabels(data, [series]);
          const card = liveReply(
            series,
            stack.names,
            { spoilers: defaultSettings().spoilers, t: translator('en') },
            {
              matches: (matches as Match[]).filter((m) => m.deleted_at === null),
              ...(summary ? { summary: summary as LiveSummary } : {}),
              mapName: (id) => stack.names.mapName(id),
              first: false,
            },
          );
          for (const platform of PLATFORMS) {
            await expectGolden(`notify-live-card-${kind}`, card, platform);
            const tenant = await tenantWith(stack, {}, platform);
            const result = await call(stack, 'live', { series: String(p.plan.id) }, { tenant, platform });
            expect(result.outcome, `${kind} on ${platform}: ${result.text}`).toBe('ok');
            await expectGolden(`live-series-${kind}`, result.reply, platform);
            for (const locale of OTHER_LOCALES) {
              const reader = await tenantWith(stack, { language: locale }, platform);
              const local = await call(
                stack,
                'live',
                { series: String(p.plan.id) },
                { tenant: reader, platform },
              );
              expect(local.outcome, `${kind} on ${platform} in ${locale}: ${local.text}`).toBe('ok');
              await expectGolden(`live-series-${kind}`, local.reply, platform, locale);
            }
          }
        }
      } finally {
        await stack.jump(start);
      }
    });
  });
});
