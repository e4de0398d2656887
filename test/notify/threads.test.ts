/**
 * Threads for a match: the real notifier and ledger (SQLite file) over the local
 * service at frozen instants; DiscordDelivery through discord.js' REST client and SlackDelivery
 * through the Web API client, against the loopback fakes. In a channel with threads, the live card
 * is still edited in place, and each finished game is posted once as a reply in a thread under it
 * (a Discord thread started on the card; Slack `thread_ts`), with the score under the channel's
 * spoiler policy; a restart posts no reply twice; a channel without threads gets none. A process
 * that dies between a reply's post and its mark leaves the reply to be found again, not re-posted:
 * on Discord by its nonce, on Slack by the ledger key in the metadata of the thread's replies.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REST } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clock } from '../../src/core/clock.ts';
import { messageText } from '../../src/core/errors.ts';
import { type LedgerOptions, ledgerKey } from '../../src/notify/ledger.ts';
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
const MIN = 60_000;
const GUILD = '100000000000000031';
const THREADED = '200000000000000031';
const PLAIN = '200000000000000032';
const dir = mkdtempSync(join(tmpdir(), 'matchday-threads-'));
let service: RunningService;
let clock: Clock;
let fake: FakeDiscord;
let slack: FakeSlack;
const tenants = new MemoryTenants();

beforeAll(async () => {
  clock = new Clock({ start: new Date(FROM), frozen: true });
  service = await startService({ port: 0, seed: 11, clock, rate: 0 });
  fake = await FakeDiscord.start({
    guilds: [
      {
        id: GUILD,
        name: 'Hub',
        channels: [
          { id: THREADED, name: 'matches' },
          { id: PLAIN, name: 'scores' },
        ],
      },
    ],
  });
  slack = await FakeSlack.start({ channels: [{ id: 'C0MATCHES', name: 'matches' }] });
});
afterAll(async () => {
  await fake?.close();
  await slack?.close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A process that is killed right after a thread reply goes out: the reply's mark is never written. */
class DiesBeforeReplyMark extends SqliteLedger {
  override async markSentMany(sent: readonly (readonly [key: string, messageId: string])[]): Promise<void> {
    if (sent.some(([key]) => /:game\d+:/.test(key))) throw new Error('killed before the mark was written');
    return super.markSentMany(sent);
  }
}

function notifier(
  options: { file?: string; ledgerOptions?: LedgerOptions; diesBeforeReplyMark?: boolean } = {},
) {
  const path = join(dir, options.file ?? 'ledger.sqlite');
  const ledger = options.diesBeforeReplyMark
    ? new DiesBeforeReplyMark(path, options.ledgerOptions)
    : new SqliteLedger(path, options.ledgerOptions);
  const client = uncachedClient(service);
  const rest = new REST({ api: fake.apiUrl, retries: 0, timeout: 2000 }).setToken(fake.token);
  const n = createNotifier({
    client,
    tenants,
    clock,
    ledger,
    deliveries: {
      discord: new DiscordDelivery({ rest }),
      slack: new SlackDelivery({
        client: createDeliveryClient(slack.botToken, { apiUrl: slack.apiUrl }),
        minIntervalMs: 0,
      }),
    },
    logger: memoryLogger() as never,
  });
  return {
    async at(ms: number) {
      clock.set(new Date(ms));
      await n.tick();
      await n.drain();
    },
    async close() {
      await n.stop();
      await ledger.close();
      await client.close();
    },
    /** SIGKILL-like: no clean stop (claims are not given back, marks not retried), the files closed. */
    async kill() {
      await ledger.close();
      await client.close();
    },
  };
}

/** A two-team series of three or more games, played out, whose teams are known from the start. */
function playedSeries(): SeriesPlan {
  const w = service.world;
  const plan = w
    .window(FROM)
    .series.filter(
      (p) =>
        p.start > FROM + 60 * MIN &&
        p.rosters.length === 2 &&
        p.postponedFrom === null &&
        p.deletedAt === null &&
        p.forfeit < 0 &&
        p.matches.filter((m) => m.winner >= 0).length >= 3 &&
        w.knownRosters(p, FROM).length === 2,
    )
    .sort((a, b) => a.start - b.start)[0];
  if (!plan) throw new Error('the seeded world has no such series');
  return plan;
}

describe('threads for a match', () => {
  it('post each finished game once in a thread under the live card, on Discord and Slack', async () => {
    const plan = playedSeries();
    const teams = plan.rosters.map((r) => service.world.catalog.rosters.find((x) => x.id === r)!.team.id);
    const channel = (id: string, threads: boolean) => ({
      id,
      games: [],
      tiers: [],
      teams: [],
      kinds: ['live' as const],
      leads: [],
      ...(threads ? { threads: true } : {}),
    });
    tenants.set(`discord:${GUILD}`, {
      follows: teams,
      spoilers: 'spoiler',
      channels: [channel(THREADED, true), channel(PLAIN, false)],
    });
    tenants.set('slack:T1', { follows: teams, spoilers: 'show', channels: [channel('C0MATCHES', true)] });
    const played = plan.matches.filter((m) => m.winner >= 0).sort((a, b) => a.order - b.order);

    let run = notifier();
    await run.at(plan.start + MIN);
    await run.at(plan.start + 2 * MIN);
    // The teams may play other series meanwhile: this one's card says "Series <id>" in its footer
    // (its "Live now" goes with the first post only; an edit replaces the content).
    const ours = (m: { embeds: { footer?: { text?: string } }[] }) =>
      /series (\d+)$/i.exec(m.embeds[0]?.footer?.text ?? '')?.[1] === String(plan.id);
    const card = fake.messages(THREADED).find((m) => ours(m))!;
    expect(card).toBeDefined();
    expect(fake.thread(card.id)).toBeUndefined();

    // After the first game: a thread on the card with one reply; the card is still edited in place.
    await run.at(played[0]!.end + MIN);
    await run.at(played[0]!.end + 2 * MIN);
    const thread = fake.thread(card.id)!;
    expect(thread.channelId).toBe(THREADED);
    expect(thread.name).toContain(' vs ');
    expect(thread.messages.map((m) => m.content)).toHaveLength(1);
    expect(thread.messages[0]!.content).toMatch(/^Game 1 · .+ over\. \|\|.+–.+\|\|$/);
    expect(fake.messages(THREADED).filter((m) => ours(m))).toHaveLength(1);

    // A restart, then the rest of the series: one reply per game, none twice.
    await run.close();
    run = notifier();
    await run.at(played[1]!.end + MIN);
    await run.at(plan.end + MIN);
    await run.at(plan.end + 2 * MIN);
    const replies = fake.thread(card.id)!.messages.map((m) => m.content);
    expect(replies.map((r) => r.match(/^Game (\d+)/)![1])).toEqual(played.map((m) => String(m.order)));
    // The card itself was frozen with the result (an edit), not re-posted.
    expect(fake.messages(THREADED).filter((m) => ours(m))).toHaveLength(1);
    // The channel without threads has its card and no thread.
    const plainCard = fake.messages(PLAIN).find((m) => ours(m))!;
    expect(plainCard).toBeDefined();
    expect(fake.thread(plainCard.id)).toBeUndefined();

    // Slack: the same replies with thread_ts = the card's ts, the score shown (policy show).
    const messages = slack.messagesIn('C0MATCHES');
    const slackCard = messages.find(
      (m) => !m.thread_ts && new RegExp(`series ${plan.id}\\b`, 'i').test(JSON.stringify(m.blocks)),
    )!;
    expect(slackCard).toBeDefined();
    const slackReplies = messages.filter((m) => m.thread_ts === slackCard.ts);
    expect(slackReplies.map((m) => m.text?.match(/Game (\d+)/)?.[1])).toEqual(
      played.map((m) => String(m.order)),
    );
    const winner = service.world.catalog.teams.find((t) => t.id === teams[played[0]!.winner])!.name;
    expect(slackReplies[0]!.text).toContain(`${winner} take it`);
    await run.close();
  }, 120_000);

  it('threads refused later (permissions lost) turn off only the threads, with one admin notice', async () => {
    const plan = playedSeries();
    const teams = plan.rosters.map((r) => service.world.catalog.rosters.find((x) => x.id === r)!.team.id);
    const guild = '100000000000000051';
    const id = '200000000000000051';
    await fake.close();
    fake = await FakeDiscord.start({
      guilds: [{ id: guild, name: 'Perms', channels: [{ id, name: 'matches' }] }],
    });
    for (const t of await tenants.list()) await tenants.purge(t);
    tenants.set(`discord:${guild}`, {
      follows: teams,
      spoilers: 'show',
      channels: [
        {
          id,
          name: 'matches',
          games: [],
          tiers: [],
          teams: [],
          kinds: ['live', 'results'],
          leads: [],
          threads: true,
        },
      ],
    });
    const played = plan.matches.filter((m) => m.winner >= 0).sort((a, b) => a.order - b.order);
    const ours = (m: { embeds: { footer?: { text?: string } }[] }) =>
      /series (\d+)$/i.exec(m.embeds[0]?.footer?.text ?? '')?.[1] === String(plan.id);

    const run = notifier({ file: 'perms-ledger.sqlite' });
    await run.at(plan.start + MIN);
    const card = fake.messages(id).find((m) => ours(m))!;
    expect(card).toBeDefined();
    // An admin takes Create Public Threads away after threads were turned on.
    fake.denyBot(id, ['CREATE_PUBLIC_THREADS']);
    await run.at(played[0]!.end + MIN);
    await run.at(played[1]!.end + MIN);
    await run.at(plan.end + MIN);
    await run.close();

    const settings = await tenants.get(`discord:${guild}`);
    const channel = settings.channels.find((c) => c.id === id)!;
    // Threads off; the channel's notifications on; one notice naming what is missing and the fix.
    expect(channel.threads).toBeUndefined();
    expect(channel.disabled).toBeUndefined();
    expect(settings.adminNotices).toHaveLength(1);
    expect(messageText(settings.adminNotices[0]!)).toContain('Threads in channel matches were turned off');
    expect(messageText(settings.adminNotices[0]!)).toContain(
      'Create Public Threads and Send Messages in Threads',
    );
    expect(messageText(settings.adminNotices[0]!)).toContain('/settings threads');
    // No thread, and the live card went on: edited after the refusal, frozen with the result.
    expect(fake.thread(card.id)).toBeUndefined();
    const after = fake.messages(id).find((m) => m.id === card.id)!;
    expect(after.edits).toBeGreaterThan(0);
    expect(fake.messages(id).filter((m) => ours(m))).toHaveLength(1);
  }, 120_000);

  it('a reply whose mark was lost in a crash is found again, not posted twice (Discord and Slack)', async () => {
    const plan = playedSeries();
    const teams = plan.rosters.map((r) => service.world.catalog.rosters.find((x) => x.id === r)!.team.id);
    const channel = (id: string) => ({
      id,
      games: [],
      tiers: [],
      teams: [],
      kinds: ['live' as const],
      leads: [],
      threads: true,
    });
    // Other tenants and channels than the first test, so their posts cannot be confused.
    const guild = '100000000000000041';
    const discordChannel = '200000000000000041';
    await fake.close();
    await slack.close();
    fake = await FakeDiscord.start({
      guilds: [{ id: guild, name: 'Crash', channels: [{ id: discordChannel, name: 'matches' }] }],
    });
    slack = await FakeSlack.start({ channels: [{ id: 'C0CRASH', name: 'crash' }] });
    for (const id of await tenants.list()) await tenants.purge(id);
    tenants.set(`discord:${guild}`, {
      follows: teams,
      spoilers: 'show',
      channels: [channel(discordChannel)],
    });
    tenants.set('slack:T1', { follows: teams, spoilers: 'show', channels: [channel('C0CRASH')] });
    const played = plan.matches.filter((m) => m.winner >= 0).sort((a, b) => a.order - b.order);
    // The restarted process has the same instance identity: it takes the dead one's claims at once.
    const same = { file: 'crash-ledger.sqlite', ledgerOptions: { holder: 'threads-crash' } };

    const first = notifier({ ...same, diesBeforeReplyMark: true });
    await first.at(plan.start + MIN);
    // Game 1's reply goes out on both platforms; the process dies before its mark is written.
    await first.at(played[0]!.end + MIN);
    const slackCard = slack
      .messagesIn('C0CRASH')
      .find((m) => !m.thread_ts && new RegExp(`series ${plan.id}\\b`, 'i').test(JSON.stringify(m.blocks)))!;
    expect(slackCard).toBeDefined();
    const slackReplies = () =>
      slack
        .messagesIn('C0CRASH')
        .filter((m) => m.thread_ts === slackCard.ts)
        .map((m) => m.text?.match(/Game (\d+)/)?.[1]);
    expect(slackReplies()).toEqual(['1']);
    const card = fake
      .messages(discordChannel)
      .find((m) => /series (\d+)$/i.exec(m.embeds[0]?.footer?.text ?? '')?.[1] === String(plan.id))!;
    const discordReplies = () =>
      fake.thread(card.id)!.messages.map((m) => m.content.match(/^Game (\d+)/)?.[1]);
    expect(discordReplies()).toEqual(['1']);
    await first.kill();

    // The restart finds game 1's reply in the thread (its key in the reply's metadata) and marks it.
    const second = notifier(same);
    await second.at(played[0]!.end + 2 * MIN);
    expect(slackReplies()).toEqual(['1']);
    expect(discordReplies()).toEqual(['1']);
    // Both keys are now marked sent with the message found, not a new one.
    const ledger = new SqliteLedger(join(dir, same.file));
    const replyKey = (platform: 'discord' | 'slack', tenantId: string, channelId: string) =>
      ledgerKey('live', plan.id, 'game1', { platform, tenantId, channelId });
    const slackMark = await ledger.get(replyKey('slack', 'slack:T1', 'C0CRASH'));
    const discordMark = await ledger.get(replyKey('discord', `discord:${guild}`, discordChannel));
    await ledger.close();
    expect(slackMark).toMatchObject({
      state: 'sent',
      messageId: slack.messagesIn('C0CRASH').find((m) => m.thread_ts === slackCard.ts)!.ts,
    });
    expect(discordMark).toMatchObject({ state: 'sent', messageId: fake.thread(card.id)!.messages[0]!.id });
    // The rest of the series: one reply per game, none twice.
    await second.at(plan.end + MIN);
    await second.at(plan.end + 2 * MIN);
    const all = played.map((m) => String(m.order));
    expect(slackReplies()).toEqual(all);
    expect(discordReplies()).toEqual(all);
    await second.close();
  }, 120_000);
});
