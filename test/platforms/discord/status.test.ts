/**
 * `/status` on Discord end to end: the real discord.js client against the fake,
 * the embedded service. It reflects injected faults: a channel where the fake denies Matchday a
 * permission, a subscription paused by a delivery failure, the service down; a feed that is behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replyText } from '../../../src/bot/reply.ts';
import { Runtime } from '../../../src/bot/runtime.ts';
import { defaultSettings, type Settings, settingsSchema } from '../../../src/bot/settings.ts';
import { VERSION } from '../../../src/bot/status.ts';
import { MEMBER_PERMISSIONS, PERMISSIONS } from '../../fakes/discord.ts';
import { CHANNELS, GUILD, type Rig, startRig } from './rig.ts';

const AT = new Date('2026-03-18T15:20:00.000Z');
const ADMIN = MEMBER_PERMISSIONS | PERMISSIONS.MANAGE_GUILD;
const BOSS = { id: '700000000000000002', username: 'boss' };
const FAN = { id: '700000000000000001', username: 'fan' };
const TENANT = `discord:${GUILD}`;

let rig: Rig;
beforeAll(async () => {
  rig = await startRig({ at: AT });
  const settings: Settings = settingsSchema.parse({
    ...defaultSettings(),
    channels: [
      { id: CHANNELS.matches, name: 'matches' },
      // The fake denies Matchday Send Messages here (seeded, as a server admin would).
      { id: CHANNELS.locked, name: 'read-only' },
      {
        id: CHANNELS.results,
        name: 'results',
        disabled: { reason: 'UNKNOWN_CHANNEL: the channel was deleted', at: '2026-03-18T12:00:00.000Z' },
      },
    ],
  });
  await rig.app.tenants.save(TENANT, settings);
}, 60_000);
afterAll(async () => {
  await rig?.close();
});

/** The /status answer as the admin sees it: every embed's title, fields and footer as text. */
async function status(): Promise<{ title: string; text: string; ephemeral: boolean }> {
  const result = await rig.fake.answer({ command: 'status', user: BOSS, permissions: ADMIN });
  const embed = result.message!.embeds[0]!;
  const fields = (embed.fields ?? []).map((f: { name: string; value: string }) => `${f.name}: ${f.value}`);
  // Discord's text escapes markdown (`\\#`): read it as a person does.
  return {
    title: embed.title,
    text: fields.join('\n').replaceAll('\\', ''),
    ephemeral: result.ephemeral === true,
  };
}

describe('/status on Discord', () => {
  it('is for admins only', async () => {
    const result = await rig.fake.answer({ command: 'status', user: FAN });
    const text = JSON.stringify(result.message);
    expect(text).not.toContain('Esports data service');
    expect(text).toMatch(/admin|Manage Server/i);
  });

  it('names the channel missing a permission, the paused subscription and why, the version, the next series', async () => {
    const answer = await status();
    expect(answer.ephemeral).toBe(true);
    expect(answer.title).toBe('Matchday status: something is wrong');
    expect(answer.text).toContain('#read-only: missing Send Messages');
    expect(answer.text).not.toContain('#matches: missing');
    expect(answer.text).toContain('#matches: OK');
    expect(answer.text).toContain('#results: paused');
    expect(answer.text).toMatch(/#results since .*UNKNOWN_CHANNEL: the channel was deleted/);
    expect(answer.text).toContain(`Version: Matchday ${VERSION}`);
    expect(answer.text).toContain('Esports data service: Answering');
    expect(answer.text).toMatch(/Next series: .+ \(series \d+\) .*live data expected|no live data expected/);
    expect(answer.text).toMatch(/Upstream budget: \d+\.\d of \d+ requests\/s/);
  });

  it('says all good once the channel is fixed and the paused one removed', async () => {
    await rig.app.tenants.update(TENANT, (s) => ({
      ...s,
      channels: s.channels.filter((c) => c.id === CHANNELS.matches),
    }));
    const answer = await status();
    expect(answer.title).toBe('Matchday status: all good');
    expect(answer.text).toContain('Paused subscriptions: None');
    expect(answer.text).not.toContain('missing');
  });

  it('checks Manage Events only for a channel with scheduled events on, and thread permissions only with threads on', async () => {
    const guild = () => rig.bot.client.guilds.cache.get(GUILD)!;
    const setChannel = (extra: { events?: boolean; threads?: boolean }) =>
      rig.app.tenants.update(TENANT, (s) => ({
        ...s,
        channels: s.channels.map((c) => {
          const { events: _e, threads: _t, ...rest } = c;
          return c.id === CHANNELS.matches ? { ...rest, ...extra } : c;
        }),
      }));
    // Matchday has no Manage Events in this server: nothing to say while events are off.
    expect(guild().members.me?.permissions.has('ManageEvents')).toBe(false);
    expect((await status()).text).toContain('#matches: OK');
    await setChannel({ events: true });
    const events = await status();
    expect(events.title).toBe('Matchday status: something is wrong');
    expect(events.text).toContain('#matches: missing Manage Events (scheduled events are on)');
    rig.fake.grantBot(GUILD, ['MANAGE_EVENTS']);
    await expect
      .poll(() => guild().members.me?.permissions.has('ManageEvents'), { timeout: 3000 })
      .toBe(true);
    expect((await status()).text).toContain('#matches: OK');

    // Threads: without Send Messages in Threads, said only once threads are on for the channel.
    const may = () =>
      guild()
        .channels.cache.get(CHANNELS.matches)
        ?.permissionsFor(guild().members.me!)
        ?.has('SendMessagesInThreads');
    rig.fake.denyBotAndTell(CHANNELS.matches, ['SEND_MESSAGES_IN_THREADS']);
    try {
      await expect.poll(may, { timeout: 3000 }).toBe(false);
      expect((await status()).text).toContain('#matches: OK');
      await setChannel({ events: true, threads: true });
      const threads = await status();
      expect(threads.text).toContain('#matches: missing Send Messages in Threads (threads are on)');
      expect(threads.text).not.toContain('Manage Events');
    } finally {
      rig.fake.denyBotAndTell(CHANNELS.matches, []);
      await expect.poll(may, { timeout: 3000 }).toBe(true);
      await setChannel({});
    }
    const fixed = await status();
    expect(fixed.text).toContain('#matches: OK');
    expect(fixed.text).not.toContain('missing');
  });

  it('says the service is not answering when it fails', async () => {
    const service = rig.app.service!;
    service.faults.errorRate = 1;
    // Other tiers: a question the client's cache cannot answer, so it goes to the failing service.
    await rig.app.tenants.update(TENANT, (s) => ({ ...s, tiers: [3, 4] }));
    try {
      const answer = await status();
      expect(answer.title).toBe('Matchday status: something is wrong');
      expect(answer.text).toMatch(/Esports data service: Not answering/);
      expect(answer.text).not.toContain('Esports data service: Answering');
    } finally {
      service.faults.errorRate = 0;
    }
  });

  /** `/status` with a feed whose last live read is `agoMs` of service time old, on a clock at `speed`. */
  async function feedStatus(agoMs: number, speed: number, oneShot = false) {
    const now = rig.clock.nowMs();
    const runtime = new Runtime({
      commands: rig.app.runtime.commands,
      client: rig.app.client,
      names: rig.app.names,
      tenants: rig.app.tenants,
      clock: rig.clock,
      logger: rig.app.logger,
      status: () => ({
        version: VERSION,
        hasFeed: true,
        feedFilling: false,
        clockSpeed: speed,
        lastPollAt: now - agoMs,
        upstream: {
          seconds: 60,
          requests: 30,
          failed: 30,
          rateLimited: 0,
          perSecond: 5,
          inUseRatio: 0.1,
          queueLength: 0,
        },
        notifier: true,
        oneShot,
      }),
    });
    const reply = await runtime.execute({
      platform: 'discord',
      tenantKey: GUILD,
      user: { id: BOSS.id, name: BOSS.username, isAdmin: true },
      channel: { id: CHANNELS.general },
      command: 'status',
      args: {},
    });
    return { reply, text: replyText(reply) };
  }

  it('says a feed whose last successful poll is old is behind', async () => {
    const { reply, text } = await feedStatus(10 * 60_000, 1);
    expect(text).toContain('10 min behind: the service may be failing');
    expect(text).toContain('30 failed');
    expect(text).toContain('notifier running here');
    expect(reply.cards[0]!.title).toBe('Matchday status: something is wrong');
  });

  it("says plainly that a one-off matchday ask process's upstream figures are its own, not the bot's", async () => {
    const asked = await feedStatus(60_000, 1, true);
    expect(asked.text).toContain(
      "Upstream budget: This answer comes from a one-off matchday ask process (30 requests of its own so far); the running Matchday's use shows in /status in its chat.",
    );
    expect(asked.text).not.toContain('requests/s');
    const bot = await feedStatus(60_000, 1);
    expect(bot.text).toContain('requests/s');
    expect(bot.text).not.toContain('matchday ask');
  });

  it("judges the feed's age in real time on a fast clock (npm start at CLOCK_SPEED=30)", async () => {
    // 4 minutes of service time are 8 real seconds at 30x: one poll interval, not a failure.
    const fresh = await feedStatus(4 * 60_000, 30);
    expect(fresh.text).not.toContain('behind');
    expect(fresh.text).toMatch(/Feed: Last successful poll/);
    // 90 minutes of service time are 3 real minutes at 30x: behind.
    const old = await feedStatus(90 * 60_000, 30);
    expect(old.text).toContain('behind: the service may be failing');
  });
});
