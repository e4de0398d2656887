/**
 * The tournament-end card (docs/notifications.md): when a tournament's last series ends,
 * each channel that takes results of its final substage gets one card "<title> is over" with the
 * champion and places, derived here from the world's plans (not hard-coded), under each channel's
 * spoiler policy; not a channel with results off, nor one of another game; by DM to a follower who
 * takes results by DM, also of a team knocked out before the final; once across a restart; not
 * past the 3-hour late window. Whatever the world's timetable, the tournament is found in it (its
 * grand final's end).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNameIndex } from '../../src/bot/names.ts';
import { defaultSettings, type Settings, settingsSchema } from '../../src/bot/settings.ts';
import { openUserStore, type UserStore } from '../../src/bot/users.ts';
import { createClient, type EsportsClient } from '../../src/client/client.ts';
import { Clock } from '../../src/core/clock.ts';
import { createFeed, type Feed } from '../../src/feed/feed.ts';
import { createNotifier, type Notifier } from '../../src/notify/notifier.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import { teamNameOf } from '../commands/truth.ts';
import { MemoryTenants, memoryLogger, RecordingDelivery, transient, uncachedClient } from './helpers.ts';
import { expectedNotifications, type TournamentEndPlan, tournamentEndsIn } from './world-expect.ts';

const DAY = 24 * 3600_000;
const MIN = 60_000;
const FROM = Date.parse('2025-06-04T00:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'matchday-tournament-end-'));
let service: RunningService;
let clock: Clock;
let users: UserStore;
let end: TournamentEndPlan;
let tenants: [string, Settings][];
/** Every tournament-end key the first notifier posted, and what it said (key and text). */
let postedFirst: string[] = [];
let saidFirst: string[] = [];
let feed: Feed | undefined;
const rigs: { notifier: Notifier; ledger: SqliteLedger }[] = [];
const PAIR = { id: 'notifier', secret: 'notifier-v2-secret' };
const FAN = '500000000000000001';
const REMINDERS_ONLY = '500000000000000002';
/** Follows a team entered in the tournament but knocked out before its final substage. */
const KNOCKED_OUT = '500000000000000003';

const settings = (over: Partial<Settings>): Settings =>
  settingsSchema.parse({ ...defaultSettings(), ...over });
const channel = (id: string, games: number[], kinds: Settings['channels'][number]['kinds']) => ({
  id,
  games,
  tiers: [],
  teams: [],
  kinds,
  leads: [],
});

/** The first tournament decided by a grand final after FROM, found in the world. */
function firstBracketEnd(): TournamentEndPlan {
  for (let day = FROM; day < FROM + 21 * DAY; day += DAY) {
    const found = tournamentEndsIn(service.world, day, day + DAY)
      .filter((e) => e.series.some((p) => p.bracket?.part === 'GF'))
      .sort((a, b) => a.at - b.at)[0];
    if (found) return found;
  }
  throw new Error('no tournament ends with a grand final in three weeks of the world');
}

/** A client of the local service's /v2, on the simulated clock (as in v2-day.test.ts). */
function v2Client(): EsportsClient {
  return createClient({
    baseUrl: service.v2.url,
    v2: { clientId: PAIR.id, clientSecret: PAIR.secret, now: () => clock.nowMs(), perMinute: 100_000_000 },
    rate: { perSecond: 100_000, burst: 100_000 },
    ttl: { series: 0, matches: 0, live: 0, streams: 0, casters: 0, substages: 0 },
  });
}

function rig(
  ledgerName: string,
  feed?: Parameters<typeof createNotifier>[0]['feed'],
  client: EsportsClient = uncachedClient(service),
) {
  const store = new MemoryTenants();
  for (const [id, s] of tenants) store.set(id, s);
  const now = () => clock.nowMs();
  const deliveries = {
    discord: new RecordingDelivery('discord', now),
    slack: new RecordingDelivery('slack', now),
    terminal: new RecordingDelivery('terminal', now),
  };
  const ledger = new SqliteLedger(join(dir, `${ledgerName}.sqlite`));
  const logger = memoryLogger();
  const notifier = createNotifier({
    client,
    ...(feed ? { feed } : {}),
    tenants: store,
    clock,
    ledger,
    deliveries,
    users,
    logger: logger as never,
    editIntervalMs: 0,
  });
  rigs.push({ notifier, ledger });
  /** Posts of tournament-end cards: of the tournament under test, or (`any`) of every tournament. */
  const tournamentPosts = (any = false) =>
    Object.values(deliveries)
      .flatMap((d) => d.posts())
      .filter((p) => p.key.startsWith(any ? 'tournament:' : `tournament:${end.tournament.id}:`));
  return { notifier, ledger, logger, deliveries, tournamentPosts };
}

async function tickAt(notifier: Notifier, t: number): Promise<void> {
  clock.set(new Date(t));
  await notifier.tick();
  await notifier.drain();
}

beforeAll(async () => {
  clock = new Clock({ start: new Date(FROM), frozen: true });
  service = await startService({ port: 0, seed: 11, clock, rate: 0, v2Clients: [PAIR] });
  end = firstBracketEnd();
  const other = service.world.catalog.games.map((g) => g.game.id).find((g) => g !== end.tournament.game)!;
  const tier = end.tournament.tier;
  tenants = [
    [
      'discord:100',
      settings({
        games: [end.tournament.game],
        tiers: [tier],
        spoilers: 'show',
        channels: [
          channel('d-results', [], ['results']),
          channel('d-off', [], ['reminders', 'live']),
          channel('d-other', [other], ['results']),
        ],
      }),
    ],
    [
      'slack:T100',
      settings({
        games: [end.tournament.game],
        tiers: [tier],
        spoilers: 'hide',
        channels: [channel('s', [], ['results'])],
      }),
    ],
    [
      'terminal:local',
      settings({
        games: [end.tournament.game],
        tiers: [tier],
        spoilers: 'spoiler',
        channels: [channel('t', [], ['results'])],
      }),
    ],
  ];
  const path = join(dir, 'users.sqlite');
  users = await openUserStore(
    { kind: 'sqlite', url: `sqlite://${path}`, path },
    { logger: pino({ level: 'silent' }) },
  );
  const gf = end.series.find((p) => p.bracket?.part === 'GF')!;
  const team = service.world.catalog.rosterById.get(gf.rosters[gf.winner]!)!.team.id;
  const follow = { follows: [{ team, noQualifiers: false }] };
  await users.update(`discord:${FAN}`, (p) => ({ ...p, ...follow, dms: ['results'], spoilers: 'show' }));
  await users.update(`discord:${REMINDERS_ONLY}`, (p) => ({ ...p, ...follow, dms: ['reminders'] }));
  const finalists = new Set(end.series.flatMap((p) => p.rosters));
  const out = end.tournament.rosters.find((r) => !finalists.has(r))!;
  const outTeam = service.world.catalog.rosterById.get(out)!.team.id;
  await users.update(`discord:${KNOCKED_OUT}`, (p) => ({
    ...p,
    follows: [{ team: outTeam, noQualifiers: false }],
    dms: ['results'],
    spoilers: 'show',
  }));
}, 120_000);

afterAll(async () => {
  for (const r of rigs) {
    await r.notifier.stop();
    await r.ledger.close();
  }
  await feed?.stop();
  await users?.close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the tournament-end card', () => {
  it('is posted once per channel that takes results, with the champion and places from the world', async () => {
    const world = service.world;
    const gf = end.series.find((p) => p.bracket?.part === 'GF')!;
    const champion = teamNameOf(world, gf.rosters[gf.winner]!);
    const runnerUp = teamNameOf(world, gf.rosters[1 - gf.winner]!);
    const title = world.tournamentAt(end.tournament).title;
    const prize = world.tournamentAt(end.tournament).string_prize_pool;
    const r = rig('main');
    // A frozen clock while the grand final plays, then a jump over its end, then a few ticks.
    await tickAt(r.notifier, end.at - 20 * MIN);
    expect(r.tournamentPosts()).toEqual([]);
    for (let t = end.at + 90_000; t <= end.at + 10 * MIN; t += 2 * MIN) await tickAt(r.notifier, t);

    const posts = r.tournamentPosts();
    postedFirst = r.tournamentPosts(true).map((p) => p.key);
    saidFirst = posts.map((p) => `${p.key}\n${p.revealed}`).sort();
    const key = (tenant: string, ch: string) => `tournament:${end.tournament.id}:over:${tenant}:${ch}`;
    expect(posts.map((p) => p.key).sort()).toEqual(
      [
        key('discord:100', 'd-results'),
        key(`discord:${FAN}`, `dm:${FAN}`),
        key(`discord:${KNOCKED_OUT}`, `dm:${KNOCKED_OUT}`),
        key('slack:T100', 's'),
        key('terminal:local', 't'),
      ].sort(),
    );
    // The world says the same: what it expects over the span is what went out.
    const due = expectedNotifications(world, tenants, end.at - 20 * MIN, end.at + 10 * MIN).filter(
      (e) => e.kind === 'tournament',
    );
    expect(due.map((e) => e.key).sort()).toEqual(
      posts
        .map((p) => p.key)
        .filter((k) => !k.includes(':dm:'))
        .sort(),
    );
    for (const p of posts) expect(p.at).toBeGreaterThanOrEqual(end.at);

    const shown = posts.find((p) => p.channelId === 'd-results')!;
    expect(shown.text).toContain(`${title} is over`);
    const first = prize.first ? ` · ${prize.first}` : '';
    const second = prize.second ? ` · ${prize.second}` : '';
    expect(shown.text).toContain(`Champion: ${champion}${first}`);
    expect(shown.text).toContain(`2nd ${runnerUp}${second}`);
    expect(posts.find((p) => p.channelId === `dm:${FAN}`)!.text).toContain(`Champion: ${champion}`);
    // The follower of a team out before the final hears who won all the same.
    expect(posts.find((p) => p.channelId === `dm:${KNOCKED_OUT}`)!.text).toContain(`Champion: ${champion}`);

    const guarded = posts.find((p) => p.channelId === 't')!;
    expect(guarded.text).toContain(`${title} is over`);
    expect(guarded.text).not.toContain(champion);
    expect(guarded.revealed).toContain(`Champion: ${champion}`);

    const hidden = posts.find((p) => p.channelId === 's')!;
    expect(hidden.text).toContain(`${title} is over`);
    expect(hidden.text).toContain('The placements are hidden by the spoiler setting');
    expect(hidden.revealed).not.toContain(champion);
    expect(hidden.revealed).not.toContain('Champion:');
  }, 300_000);

  it('is not posted again after a restart on the same ledger', async () => {
    const again = rig('main');
    for (const t of [end.at + 11 * MIN, end.at + 40 * MIN]) await tickAt(again.notifier, t);
    expect(again.tournamentPosts()).toEqual([]);
    // Other tournaments may end meanwhile; none that the first process told is told again.
    const twice = again.tournamentPosts(true).filter((p) => postedFirst.includes(p.key));
    expect(twice).toEqual([]);
    const entry = await again.ledger.get(`tournament:${end.tournament.id}:over:discord:100:d-results`);
    expect(entry?.state).toBe('sent');
  }, 300_000);

  it('goes out late within 3 hours of the end, and not after (a logged drop when it was pending)', async () => {
    const late = rig('late');
    await tickAt(late.notifier, end.at + 2 * 3600_000 + 50 * MIN);
    expect(late.tournamentPosts().length).toBe(5);

    const tooLate = rig('too-late');
    await tickAt(tooLate.notifier, end.at + 3 * 3600_000 + 2 * MIN);
    expect(tooLate.tournamentPosts()).toEqual([]);

    // Held back by failures (Slack answers 429 throughout) until the window closes: dropped, logged with its key.
    const held = rig('held');
    held.deliveries.slack.failures.set('slack:T100/s', transient());
    await tickAt(held.notifier, end.at + 2 * MIN);
    const slackKey = `tournament:${end.tournament.id}:over:slack:T100:s`;
    expect(held.tournamentPosts().map((p) => p.key)).not.toContain(slackKey);
    expect(held.tournamentPosts().length).toBe(4);
    await tickAt(held.notifier, end.at + 3 * 3600_000 + 2 * MIN);
    expect(held.tournamentPosts().map((p) => p.key)).not.toContain(slackKey);
    const drop = held.logger.lines.find((l) => l.msg?.startsWith('tournament card dropped'));
    expect((drop?.obj as { keys: string[] } | undefined)?.keys).toEqual([slackKey]);
  }, 300_000);

  it('says the same over the feed of a running Matchday', async () => {
    const client = uncachedClient(service);
    clock.set(new Date(end.at - 20 * MIN));
    const names = createNameIndex({ client, clock });
    await names.refresh();
    feed = createFeed({ client, clock, horizonMs: 26 * 3600_000, pastMs: 3 * 3600_000 });
    const over = rig('feed', { feed, names });
    for (let t = end.at - 20 * MIN; t <= end.at + 10 * MIN; t += 2 * MIN) {
      clock.set(new Date(t));
      await feed.tick();
      await tickAt(over.notifier, t);
    }
    expect(
      over
        .tournamentPosts()
        .map((p) => `${p.key}\n${p.revealed}`)
        .sort(),
    ).toEqual(saidFirst);
  }, 300_000);

  it('says the same on v2', async () => {
    const v2 = rig('v2', undefined, v2Client());
    await tickAt(v2.notifier, end.at - 20 * MIN);
    for (let t = end.at + 90_000; t <= end.at + 10 * MIN; t += 2 * MIN) await tickAt(v2.notifier, t);
    expect(
      v2
        .tournamentPosts()
        .map((p) => `${p.key}\n${p.revealed}`)
        .sort(),
    ).toEqual(saidFirst);
  }, 300_000);

  it('names the champion of a battle-royale final lobby by its standings', async () => {
    const world = service.world;
    let lobby: TournamentEndPlan | undefined;
    for (let day = FROM; !lobby && day < FROM + 21 * DAY; day += DAY)
      lobby = tournamentEndsIn(world, day, day + DAY).find((e) => e.series[0]!.substage.type === 3);
    if (!lobby) throw new Error('no tournament ends with a final lobby in three weeks of the world');
    const final = lobby.series[0]!.substage;
    const standings = world.substageAt(final, lobby.at + MIN).standings;
    const champion = teamNameOf(world, standings[0]!.roster.id);
    const title = world.tournamentAt(lobby.tournament).title;
    tenants = [
      [
        'discord:200',
        settings({
          games: [lobby.tournament.game],
          tiers: [lobby.tournament.tier],
          spoilers: 'show',
          channels: [channel('br', [], ['results'])],
        }),
      ],
    ];
    const r = rig('lobby');
    await tickAt(r.notifier, lobby.at - 20 * MIN);
    for (let t = lobby.at + MIN; t <= lobby.at + 9 * MIN; t += 2 * MIN) await tickAt(r.notifier, t);
    const posts = r
      .tournamentPosts(true)
      .filter((p) => p.key === `tournament:${lobby.tournament.id}:over:discord:200:br`);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.text).toContain(`${title} is over`);
    expect(posts[0]!.text).toContain(`Champion: ${champion}`);
    expect(posts[0]!.text).toContain(`2nd ${teamNameOf(world, standings[1]!.roster.id)}`);
  }, 300_000);
});
