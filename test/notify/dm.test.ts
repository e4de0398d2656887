/**
 * Reminders by direct message on Discord and Slack: the real notifier and ledger (SQLite file), the real
 * profile store (SQLite file), DiscordDelivery through discord.js' REST client and SlackDelivery through
 * the Web API client, against the loopback fakes. A person's follow brings their reminder by DM at their
 * own lead, once, also across a restart on the same ledger; closed DMs pause the person and tell them
 * once.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REST } from 'discord.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openUserStore, type UserStore } from '../../src/bot/users.ts';
import { Clock } from '../../src/core/clock.ts';
import { messageText } from '../../src/core/errors.ts';
import { createNotifier } from '../../src/notify/notifier.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { DiscordDelivery } from '../../src/platforms/discord/delivery.ts';
import { createDeliveryClient, SlackDelivery } from '../../src/platforms/slack/delivery.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import type { SeriesPlan } from '../../src/service/schedule.ts';
import { FakeDiscord } from '../fakes/discord.ts';
import { FakeSlack } from '../fakes/slack.ts';
import { MemoryTenants, memoryLogger, uncachedClient } from './helpers.ts';

const FROM = Date.parse('2025-06-04T00:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'matchday-dm-'));
const OPEN_USER = '400000000000000001';
const CLOSED_USER = '400000000000000002';
let service: RunningService;
let clock: Clock;
let fake: FakeDiscord;
let slack: FakeSlack;
let users: UserStore;

beforeAll(async () => {
  clock = new Clock({ start: new Date(FROM), frozen: true });
  service = await startService({ port: 0, seed: 11, clock, rate: 0 });
  fake = await FakeDiscord.start({ guilds: [{ id: '100000000000000009', name: 'Hub', channels: [] }] });
  slack = await FakeSlack.start({ users: [{ id: 'U0FAN', name: 'fan' }] });
  const path = join(dir, 'matchday.sqlite');
  users = await openUserStore(
    { kind: 'sqlite', url: `sqlite://${path}`, path },
    { logger: pino({ level: 'silent' }) },
  );
});
afterAll(async () => {
  await users?.close();
  await fake?.close();
  await slack?.close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A notifier as a fresh process has it, on the shared ledger file and profile store. */
function notifier() {
  const ledger = new SqliteLedger(join(dir, 'ledger.sqlite'));
  const client = uncachedClient(service);
  const rest = new REST({ api: fake.apiUrl, retries: 0, timeout: 2000 }).setToken(fake.token);
  const logger = memoryLogger();
  const n = createNotifier({
    client,
    tenants: new MemoryTenants(),
    clock,
    ledger,
    deliveries: {
      discord: new DiscordDelivery({ rest }),
      slack: new SlackDelivery({
        client: createDeliveryClient(slack.botToken, { apiUrl: slack.apiUrl }),
        minIntervalMs: 0,
      }),
    },
    logger: logger as never,
    users,
  });
  return {
    /** What the notifier logged. */
    logs: logger.lines,
    async run() {
      await n.tick();
      await n.drain();
    },
    async close() {
      await n.stop();
      await ledger.close();
      await client.close();
    },
  };
}

/** An upcoming series that neither moves nor is cancelled, with a known team, a few hours ahead. */
function plannedSeries(extra: (p: SeriesPlan) => boolean = () => true): { plan: SeriesPlan; team: number } {
  const from = FROM + 3 * 3600_000;
  const plan = service.world
    .window(from)
    .series.filter(
      (p) =>
        p.start >= from &&
        p.postponedFrom === null &&
        p.deletedAt === null &&
        service.world.knownRosters(p, from - 3600_000).length > 0 &&
        extra(p),
    )
    .sort((a, b) => a.start - b.start)[0];
  if (!plan) throw new Error('the seeded world has no such series');
  const roster = service.world.knownRosters(plan, from - 3600_000)[0]!;
  const team = service.world.catalog.rosters.find((r) => r.id === roster)!.team.id;
  return { plan, team };
}

describe('reminders by direct message', () => {
  it('reach a person once at their own lead, across a restart; closed DMs pause and tell once', async () => {
    const { plan, team } = plannedSeries();
    const teamName = service.world.catalog.teams.find((t) => t.id === team)!.name;
    // Discord people, and Slack people: one in the workspace, one gone (user_not_found), and the
    // app's own bot user (cannot_dm_bot).
    const bot = `slack:T1.${slack.botUserId}`;
    const keys = [`discord:${OPEN_USER}`, `discord:${CLOSED_USER}`, 'slack:T1.U0FAN', 'slack:T1.U0GONE', bot];
    // Each person's DMs come in their own language: the Slack fan reads Portuguese, the closed one German.
    const languages: Record<string, 'pt' | 'de'> = {
      'slack:T1.U0FAN': 'pt',
      [`discord:${CLOSED_USER}`]: 'de',
    };
    for (const key of keys)
      await users.update(key, (p) => ({
        ...p,
        leads: [45],
        follows: [{ team, noQualifiers: false }],
        language: languages[key] ?? 'en',
      }));
    fake.closeDms(CLOSED_USER);

    // Before the lead: nothing. At the lead: one DM naming the team.
    clock.set(new Date(plan.start - 50 * 60_000));
    const first = notifier();
    await first.run();
    expect(fake.directMessages(OPEN_USER)).toHaveLength(0);
    clock.set(new Date(plan.start - 44 * 60_000));
    await first.run();
    const sent = fake.directMessages(OPEN_USER);
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent[0])).toContain(teamName);
    const slackSent = slack.messagesIn('DU0FAN');
    expect(slackSent).toHaveLength(1);
    expect(JSON.stringify(slackSent[0])).toContain(teamName);
    expect(JSON.stringify(slackSent[0])).toContain('Lembrete 45 min antes');
    expect(JSON.stringify(sent[0])).toContain('Reminder 45 min before');
    await first.run();
    await first.close();

    // A restart on the same ledger sends nothing again.
    const second = notifier();
    clock.set(new Date(plan.start - 43 * 60_000));
    await second.run();
    expect(fake.directMessages(OPEN_USER)).toHaveLength(1);
    expect(slack.messagesIn('DU0FAN')).toHaveLength(1);
    await second.close();

    // Closed DMs: nothing delivered, the person paused and told once (in their next private answer).
    expect(fake.directMessages(CLOSED_USER)).toHaveLength(0);
    const paused = await users.get(`discord:${CLOSED_USER}`);
    expect(paused.paused?.reason).toContain('DM_CLOSED');
    expect(paused.notices).toHaveLength(1);
    expect(messageText(paused.notices[0]!)).toContain('pausiert');
    for (const key of ['slack:T1.U0GONE', bot]) {
      const closed = await users.get(key);
      expect(closed.paused?.reason, key).toContain('DM_CLOSED');
      expect(closed.notices, key).toHaveLength(1);
    }
    // Each refusal was asked once (paused, not retried): Slack's own error codes, as it answers them.
    const refused = slack
      .callsOf('conversations.open')
      .map((c) => [(c.params as { users?: string }).users, (c.answer as { error?: string }).error]);
    expect(refused.filter(([u]) => u === 'U0GONE')).toEqual([['U0GONE', 'user_not_found']]);
    expect(refused.filter(([u]) => u === slack.botUserId)).toEqual([[slack.botUserId, 'cannot_dm_bot']]);
    for (const key of [`discord:${OPEN_USER}`, 'slack:T1.U0FAN']) {
      const open = await users.get(key);
      expect(open.paused).toBeUndefined();
      expect(open.notices).toEqual([]);
    }
  });

  it('hold a reminder in quiet hours until they end, and drop it if it is stale by then', async () => {
    const { plan, team } = plannedSeries();
    const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
    // Quiet until 30 minutes before the start: the 45-minute reminder waits, then goes out.
    const HELD = '400000000000000003';
    // Quiet until 5 minutes before: by then the 10-minute reminder is due, so the 45-minute one is stale.
    const STALE = '400000000000000004';
    const quietTo = { [HELD]: plan.start - 30 * 60_000, [STALE]: plan.start - 5 * 60_000 };
    for (const [user, to] of Object.entries(quietTo))
      await users.update(`discord:${user}`, (p) => ({
        ...p,
        timezone: 'UTC',
        leads: [45, 10],
        quiet: { from: hhmm(plan.start - 120 * 60_000), to: hhmm(to) },
        follows: [{ team, noQualifiers: false }],
      }));
    // This series' DMs (the team may play another series soon after, with reminders of its own).
    const dms = (user: string) =>
      fake.directMessages(user).filter((m) => JSON.stringify(m).includes(`series ${plan.id}`));
    const n = notifier();
    const at = async (minutesBefore: number) => {
      clock.set(new Date(plan.start - minutesBefore * 60_000));
      await n.run();
    };
    await at(44);
    expect(dms(HELD)).toHaveLength(0);
    expect(dms(STALE)).toHaveLength(0);
    await at(29);
    const held = dms(HELD);
    expect(held).toHaveLength(1);
    expect(JSON.stringify(held[0])).toContain('Reminder 45 min before');
    expect(dms(STALE)).toHaveLength(0);
    await at(9);
    await at(4);
    // HELD: its 10-minute reminder at 9; STALE: only the 10-minute one, sent when quiet ended.
    expect(dms(HELD).map((m) => JSON.stringify(m).match(/Reminder \d+ min before/)?.[0])).toEqual([
      'Reminder 45 min before',
      'Reminder 10 min before',
    ]);
    const stale = dms(STALE);
    expect(stale).toHaveLength(1);
    expect(JSON.stringify(stale[0])).toContain('Reminder 10 min before');
    // Logged: each hold once, and the stale reminder's drop (with its key), never sent.
    const keyOf = (user: string, lead: number) =>
      `reminder:${plan.id}:${lead}m@${plan.start / 60_000}:discord:${user}:dm:${user}`;
    const logged = (msg: string) => n.logs.filter((l) => l.msg === msg).map((l) => JSON.stringify(l.obj));
    const holds = logged('reminder held: quiet hours');
    for (const key of [keyOf(HELD, 45), keyOf(STALE, 45)])
      expect(holds.filter((h) => h.includes(`"${key}"`))).toHaveLength(1);
    expect(holds.some((h) => h.includes(keyOf(HELD, 10)))).toBe(false);
    const drops = logged('reminder dropped: a shorter lead was due before it went out');
    expect(drops.some((d) => d.includes(keyOf(STALE, 45)))).toBe(true);
    expect(drops.some((d) => d.includes(keyOf(HELD, 45)))).toBe(false);
    await n.close();
  });

  it("apply a follow's tier and qualifier options, as the calendar does", async () => {
    const qualifier = plannedSeries((p) => /qualif/i.test(p.tournament.title));
    const lowTier = plannedSeries(
      (p) => p.tier >= 2 && !/qualif/i.test(p.substage.title + p.tournament.title),
    );
    // Options that leave each series out, and the same teams without options (a control).
    const PICKY = '400000000000000005';
    const ALL = '400000000000000006';
    await users.update(`discord:${PICKY}`, (p) => ({
      ...p,
      leads: [30],
      dms: ['reminders'],
      follows: [
        { team: qualifier.team, noQualifiers: true },
        { team: lowTier.team, tier: lowTier.plan.tier - 1, noQualifiers: false },
      ],
    }));
    await users.update(`discord:${ALL}`, (p) => ({
      ...p,
      leads: [30],
      dms: ['reminders'],
      follows: [
        { team: qualifier.team, noQualifiers: false },
        { team: lowTier.team, noQualifiers: false },
      ],
    }));
    const about = (user: string, id: number) =>
      fake.directMessages(user).filter((m) => JSON.stringify(m).includes(`series ${id}`));
    const n = notifier();
    for (const plan of [qualifier.plan, lowTier.plan].sort((a, b) => a.start - b.start)) {
      clock.set(new Date(plan.start - 29 * 60_000));
      await n.run();
    }
    for (const plan of [qualifier.plan, lowTier.plan]) {
      expect(about(ALL, plan.id)).toHaveLength(1);
      expect(about(PICKY, plan.id)).toHaveLength(0);
    }
    await n.close();
    for (const user of [PICKY, ALL]) await users.update(`discord:${user}`, (p) => ({ ...p, follows: [] }));
  });

  it('bring "live now" and the result, under the person\'s spoiler policy, held in quiet hours', async () => {
    const { plan, team } = plannedSeries((p) => p.forfeit < 0 && p.end - p.start < 4 * 3600_000);
    const winner = service.world.catalog.teams.find(
      (t) => t.id === service.world.catalog.rosters.find((r) => r.id === plan.rosters[plan.winner])!.team.id,
    )!.name;
    const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
    const LIVE = '400000000000000007'; // everything, results behind a spoiler (the default)
    const RESULTS = '400000000000000008'; // results only, shown
    const QUIET = '400000000000000009'; // results only, quiet over the end
    const NONE = '400000000000000010'; // reminders only
    const follow = { follows: [{ team, noQualifiers: false }], leads: [5] };
    await users.update(`discord:${LIVE}`, (p) => ({ ...p, ...follow }));
    await users.update(`discord:${RESULTS}`, (p) => ({
      ...p,
      ...follow,
      dms: ['results'],
      spoilers: 'show',
    }));
    await users.update(`discord:${QUIET}`, (p) => ({
      ...p,
      ...follow,
      dms: ['results'],
      spoilers: 'show',
      timezone: 'UTC',
      quiet: { from: hhmm(plan.end - 60 * 60_000), to: hhmm(plan.end + 60 * 60_000) },
    }));
    await users.update(`discord:${NONE}`, (p) => ({ ...p, ...follow, dms: ['reminders'] }));
    // The team may play other series around this one: messages are told apart by their footers
    // ("Final · series <id>" on a frozen card, "Result · series <id>" on a result post).
    const footer = (m: { embeds: { footer?: { text?: string } }[] }) => m.embeds[0]?.footer?.text ?? '';
    const final = (user: string) =>
      fake.directMessages(user).filter((m) => footer(m) === `Final · series ${plan.id}`);
    const result = (user: string) =>
      fake.directMessages(user).filter((m) => footer(m) === `Result · series ${plan.id}`);
    const liveNow = (user: string) => fake.directMessages(user).filter((m) => m.content.includes('Live now'));
    const n = notifier();
    const at = async (ms: number) => {
      clock.set(new Date(ms));
      await n.run();
    };
    // "Live now" is the first post's text (an edit of the card, as the score moves, keeps the card only).
    await at(plan.start + 60_000);
    const posted = liveNow(LIVE).map((m) => m.id);
    expect(posted.length).toBeGreaterThan(0);
    for (const user of [RESULTS, QUIET, NONE]) expect(liveNow(user)).toEqual([]);
    await at(plan.start + 2 * 60_000);
    const cards = (user: string) =>
      fake.directMessages(user).filter((m) => footer(m) === `Series ${plan.id}`);
    expect(cards(LIVE).map((m) => m.id)).toEqual(posted);
    for (const user of [RESULTS, QUIET, NONE]) expect(cards(user)).toEqual([]);

    await at(plan.end + 60_000);
    await at(plan.end + 2 * 60_000);
    // The live card is frozen with the result behind a spoiler (an edit of the "Live now" message).
    const [frozen, ...more] = final(LIVE);
    expect(more).toEqual([]);
    expect(posted).toContain(frozen!.id);
    expect(frozen!.edits).toBeGreaterThan(0);
    expect(JSON.stringify(frozen!.embeds)).toContain('||');
    expect(result(LIVE)).toEqual([]);
    // Results only: one post, the winner in the clear.
    expect(result(RESULTS)).toHaveLength(1);
    expect(JSON.stringify(result(RESULTS)[0]!.embeds)).toContain(winner);
    expect(JSON.stringify(result(RESULTS)[0]!.embeds)).not.toContain('||');
    // Quiet hours: held, then sent when they end (within the late window of 3 h).
    expect(result(QUIET)).toEqual([]);
    await at(plan.end + 61 * 60_000);
    expect(result(QUIET)).toHaveLength(1);
    // Reminders only: neither the live card nor the result.
    expect(final(NONE)).toEqual([]);
    expect(result(NONE)).toEqual([]);
    await at(plan.end + 62 * 60_000);
    expect(result(RESULTS)).toHaveLength(1);
    expect(result(QUIET)).toHaveLength(1);
    await n.close();
    for (const user of [LIVE, RESULTS, QUIET, NONE])
      await users.update(`discord:${user}`, (p) => ({ ...p, follows: [] }));
  });

  it('a new follow hears of nothing already live or over, as a new channel does', async () => {
    const { plan, team } = plannedSeries((p) => p.forfeit < 0 && p.end - p.start < 4 * 3600_000);
    const iso = (ms: number) => new Date(ms).toISOString();
    const EARLY = '400000000000000011'; // followed before the start: live card, frozen with the result
    const DURING = '400000000000000012'; // followed while it plays: no live card, the result
    const AFTER = '400000000000000013'; // followed after it ended: nothing of it
    const OLD = '400000000000000014'; // a follow stored before follows had a start: as before
    const follow = (since?: number) => ({
      leads: [5],
      follows: [{ team, noQualifiers: false, ...(since !== undefined ? { since: iso(since) } : {}) }],
    });
    await users.update(`discord:${EARLY}`, (p) => ({ ...p, ...follow(plan.start - 3600_000) }));
    await users.update(`discord:${DURING}`, (p) => ({ ...p, ...follow(plan.start + 30 * 60_000) }));
    await users.update(`discord:${AFTER}`, (p) => ({ ...p, ...follow(plan.end + 10 * 60_000) }));
    await users.update(`discord:${OLD}`, (p) => ({ ...p, ...follow() }));
    const footer = (m: { embeds: { footer?: { text?: string } }[] }) => m.embeds[0]?.footer?.text ?? '';
    const of = (user: string) =>
      fake
        .directMessages(user)
        .filter((m) => [`Final · series ${plan.id}`, `Result · series ${plan.id}`].includes(footer(m)));
    const n = notifier();
    const at = async (ms: number) => {
      clock.set(new Date(ms));
      await n.run();
    };
    for (const ms of [
      plan.start + 60_000,
      plan.start + 31 * 60_000,
      plan.end + 60_000,
      plan.end + 2 * 60_000,
    ])
      await at(ms);
    await at(plan.end + 15 * 60_000);
    // A live card is frozen as "Final" (an edit of the "Live now" post); without one, a "Result" post.
    expect(of(EARLY).map(footer)).toEqual([`Final · series ${plan.id}`]);
    expect(of(EARLY)[0]!.edits).toBeGreaterThan(0);
    expect(of(OLD).map(footer)).toEqual([`Final · series ${plan.id}`]);
    expect(of(DURING).map(footer)).toEqual([`Result · series ${plan.id}`]);
    expect(of(AFTER)).toEqual([]);
    await n.close();
    for (const user of [EARLY, DURING, AFTER, OLD])
      await users.update(`discord:${user}`, (p) => ({ ...p, follows: [] }));
  });
});
