/**
 * Graceful SIGTERM (docs/operations.md, "Probes and metrics"): a replica that is told to stop leaves the
 * chat platform first, so the platform routes nothing new to it, answers the commands it already received,
 * finishes the notifications under way, releases the notifier lease at once (another process takes the
 * notifications over without waiting for it to expire) and exits 0.
 *
 * Real processes (`bin/matchday.mjs start`) against the loopback Discord and Slack fakes and a real
 * redis-server. The fakes hold chosen requests unanswered, so "in flight when SIGTERM arrives" is an
 * order of events, not a matter of timing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/bot/logger.ts';
import { channelSubscriptionSchema, defaultSettings, NOTIFICATION_KINDS } from '../../src/bot/settings.ts';
import { openTenantStore } from '../../src/bot/tenants.ts';
import { FakeDiscord } from '../fakes/discord.ts';
import { FakeSlack } from '../fakes/slack.ts';
import { CHANNELS, GUILD, GUILD_SEED } from '../platforms/discord/rig.ts';
import { matchday, type Running } from './spawn.ts';

const URL = process.env.REDIS_URL;
const LEASE = 'matchday:notifier:lease';

/** A Redis database of its own, emptied, with one tenant subscribed to every kind in `channel`. */
async function freshStore(db: number, tenantId: string, channel: string) {
  const url = `${URL!.replace(/\/\d*$/, '')}/${db}`;
  const redis = createClient({ url });
  await redis.connect();
  await redis.flushDb();
  const logger = createLogger({ level: 'silent', secrets: new Set() });
  const store = await openTenantStore({ kind: 'redis', url }, { logger, mirrorPath: false });
  const settings = defaultSettings();
  settings.channels = [
    channelSubscriptionSchema.parse({ id: channel, name: 'matches', kinds: [...NOTIFICATION_KINDS] }),
  ];
  await store.save(tenantId, settings);
  await store.close();
  return { url, redis };
}

/** Ledger entries by state ('sent', 'claimed'). */
async function ledgerStates(url: string): Promise<Record<string, number>> {
  const redis = createClient({ url });
  await redis.connect();
  const states: Record<string, number> = {};
  for await (const keys of redis.scanIterator({ MATCH: 'matchday:ledger:*', COUNT: 1000 }))
    for (const key of keys) {
      const state = (await redis.get(key))?.split('|')[0] ?? 'gone';
      states[state] = (states[state] ?? 0) + 1;
    }
  await redis.quit();
  return states;
}

async function until(test: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const started = Date.now();
  while (!(await test())) {
    if (Date.now() - started > ms) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!URL)(`graceful SIGTERM${URL ? '' : ' (skipped: REDIS_URL is not set)'}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'matchday-sigterm-'));
  const running: Running[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const run of running) if (run.child.exitCode === null) run.child.kill('SIGKILL');
    for (const close of closers) await close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('Discord: leaves the gateway, answers the command under way, finishes the post under way, frees the lease, exits 0', async () => {
    const fake = await FakeDiscord.start({ guilds: [GUILD_SEED] });
    closers.push(() => fake.close());
    const { url, redis } = await freshStore(13, `discord:${GUILD}`, CHANNELS.matches);
    closers.push(() => redis.quit());
    // Notifications to the channel, and the answer of a deferred command, wait until released.
    const posts = fake.hold('POST', /^\/channels\/\d+\/messages$/);
    const answers = fake.hold('PATCH', /^\/webhooks\/\d+\/[^/]+\/messages\/@original$/);

    const run = matchday(['start'], {
      DISCORD_TOKEN: fake.token,
      DISCORD_APP_ID: fake.appId,
      DISCORD_API_URL: fake.apiUrl,
      STORE_URL: url,
      SETTINGS_MIRROR: 'off',
      ESPORTS_RATE: '10000',
      LOG_LEVEL: 'info',
    });
    running.push(run);
    await run.waitFor((o) => o.stdout.includes('Matchday is running'), 60_000, 'the start-up banner');
    await until(
      async () => (await redis.get(LEASE))?.startsWith(`${run.child.pid}-`) === true,
      30_000,
      'lease',
    );
    expect(fake.sessions).toBe(1);

    // A notification under way (held by the fake), and a command whose answer is under way.
    await until(() => posts.waiting > 0, 60_000, 'notification post');
    const command = fake.sendInteraction({ command: 'series' });
    await until(() => answers.waiting > 0, 30_000, "the command's answer");
    const postsInFlight = posts.waiting;

    run.child.kill('SIGTERM');
    // The gateway session closes while the post and the answer are still held: Discord now routes
    // this bot's interactions to its other sessions.
    await until(() => fake.sessions === 0, 8_000, 'gateway session closed');
    expect(run.child.exitCode).toBeNull();
    expect(posts.waiting).toBeGreaterThanOrEqual(postsInFlight);
    expect(answers.waiting).toBe(1);
    const late = fake.sendInteraction({ command: 'help' });

    posts.release();
    answers.release();
    // A wrong exit code shows the process's log.
    const code = await run.exited;
    expect(code, run.stderr()).toBe(0);

    // The command received before SIGTERM got its answer; the one sent after never reached it.
    const answered = fake.interactionResult(command);
    expect(answered.callbackTypes).toEqual([5]);
    expect(JSON.stringify(answered.message)).toMatch(/series|Series/);
    expect(fake.interactionResult(late).callbackTypes).toEqual([]);
    // Every post the notifier started was delivered and marked sent; no claim is left behind.
    const delivered = fake.requestsTo('POST', /^\/channels\/\d+\/messages$/);
    expect(delivered.length).toBeGreaterThanOrEqual(postsInFlight);
    expect(delivered.every((r) => r.status === 200)).toBe(true);
    const states = await ledgerStates(url);
    expect(states.sent ?? 0).toBeGreaterThanOrEqual(delivered.length);
    expect(states.claimed ?? 0).toBe(0);
    // The lease was released (not left to expire).
    expect(await redis.get(LEASE)).toBeNull();
    expect(run.stderr()).toContain('left the Discord gateway');
    expect(run.stderr()).toContain('released the notifier lease');
    expect(run.stderr() + run.stdout()).not.toContain(fake.token);
  }, 150_000);

  it('Slack: leaves the socket, answers the command under way, finishes the post under way, frees the lease, exits 0', async () => {
    const botToken = 'xoxb-sigterm-test-bot-token-5c4d3e';
    const appToken = 'xapp-sigterm-test-app-token-6f7a8b';
    const fake = await FakeSlack.start({
      botToken,
      appToken,
      users: [{ id: 'U1', name: 'ann', isAdmin: true }],
      channels: [
        { id: 'C1', name: 'general' },
        { id: 'C2', name: 'matches' },
      ],
    });
    closers.push(() => fake.close());
    const { url, redis } = await freshStore(14, `slack:${fake.teamId}`, 'C2');
    closers.push(() => redis.quit());
    const posts = fake.hold('chat.postMessage');
    const answers = fake.hold('response');

    const run = matchday(['start'], {
      SLACK_BOT_TOKEN: botToken,
      SLACK_APP_TOKEN: appToken,
      SLACK_API_URL: fake.apiUrl,
      STORE_URL: url,
      SETTINGS_MIRROR: 'off',
      ESPORTS_RATE: '10000',
      LOG_LEVEL: 'info',
    });
    running.push(run);
    await run.waitFor((o) => o.stdout.includes('Matchday is running'), 60_000, 'the start-up banner');
    await until(
      async () => (await redis.get(LEASE))?.startsWith(`${run.child.pid}-`) === true,
      30_000,
      'lease',
    );
    expect(fake.socketConnected).toBe(true);

    await until(() => posts.waiting > 0, 60_000, 'notification post');
    const { payload, responseId } = fake.slashCommandPayload({
      text: 'series',
      userId: 'U1',
      channelId: 'C1',
    });
    await fake.sendEnvelope('slash_commands', payload);
    await until(() => answers.waiting > 0, 30_000, "the command's answer");
    const postsInFlight = posts.waiting;

    run.child.kill('SIGTERM');
    await until(() => !fake.socketConnected, 8_000, 'socket closed');
    expect(run.child.exitCode).toBeNull();
    expect(answers.waiting).toBe(1);
    // Nothing new can reach this process: Slack has no connection of it to send to.
    const late = fake.slashCommandPayload({ text: 'help', userId: 'U1', channelId: 'C1' });
    await expect(fake.sendEnvelope('slash_commands', late.payload)).rejects.toThrow(
      /no Socket Mode connection/,
    );

    posts.release();
    answers.release();
    // A wrong exit code shows the process's log.
    const code = await run.exited;
    expect(code, run.stderr()).toBe(0);

    const answered = fake.responsesTo(responseId);
    expect(answered).toHaveLength(1);
    expect(answered[0]!.status).toBe(200);
    expect(JSON.stringify(answered[0]!.body)).toMatch(/series|Series/);
    expect(fake.responsesTo(late.responseId)).toEqual([]);
    const delivered = fake.callsOf('chat.postMessage');
    expect(delivered.length).toBeGreaterThanOrEqual(postsInFlight);
    expect(
      delivered.every((call) => call.status === 200 && (call.answer as { ok?: boolean }).ok === true),
    ).toBe(true);
    const states = await ledgerStates(url);
    expect(states.claimed ?? 0).toBe(0);
    expect(await redis.get(LEASE)).toBeNull();
    expect(run.stderr()).toContain('left the Slack socket');
    expect(run.stderr()).toContain('released the notifier lease');
    for (const secret of [botToken, appToken]) expect(run.stderr() + run.stdout()).not.toContain(secret);
  }, 150_000);
});
