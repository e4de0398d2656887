/**
 * One real stack for the Discord end-to-end tests: the loopback fake of Discord, an app built by
 * `createApp` on the embedded local service with a frozen clock and a SQLite store in a temp dir,
 * the commands registered in the fake guild, and the real discord.js client started by
 * `startDiscord`. Logs are captured (to search them for secrets) and unhandled rejections recorded
 * (the tests fail on any).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type App, createApp } from '../../../src/app.ts';
import type { AnyCommand } from '../../../src/bot/command.ts';
import { createLogger } from '../../../src/bot/logger.ts';
import { loadConfig } from '../../../src/config.ts';
import { Clock } from '../../../src/core/clock.ts';
import { type DiscordBot, startDiscord } from '../../../src/platforms/discord/bot.ts';
import { registerCommands } from '../../../src/platforms/discord/register.ts';
import { FakeDiscord, type FakeGuildSeed } from '../../fakes/discord.ts';

export const GUILD = '100000000000000001';
export const CHANNELS = {
  general: '200000000000000001',
  matches: '200000000000000002',
  results: '200000000000000003',
  locked: '200000000000000004',
  noEmbeds: '200000000000000005',
  hidden: '200000000000000006',
  doomed: '200000000000000007',
} as const;
export const ROLE = '300000000000000001';

export const GUILD_SEED: FakeGuildSeed = {
  id: GUILD,
  name: 'Esports Hub',
  roles: [{ id: ROLE, name: 'match-pings' }],
  channels: [
    { id: CHANNELS.general, name: 'general' },
    { id: CHANNELS.matches, name: 'matches' },
    { id: CHANNELS.results, name: 'results' },
    { id: CHANNELS.locked, name: 'read-only', denyBot: ['SEND_MESSAGES'] },
    { id: CHANNELS.noEmbeds, name: 'no-embeds', denyBot: ['EMBED_LINKS'] },
    { id: CHANNELS.hidden, name: 'staff', denyBot: ['VIEW_CHANNEL'] },
    { id: CHANNELS.doomed, name: 'to-be-deleted' },
  ],
};

export interface Rig {
  fake: FakeDiscord;
  app: App;
  bot: DiscordBot;
  clock: Clock;
  logs: string[];
  rejections: unknown[];
  dir: string;
  close(): Promise<void>;
}

export interface RigOptions {
  at: Date;
  seed?: number;
  commands?: AnyCommand[];
  deferAfterMs?: number;
}

export async function startRig(options: RigOptions): Promise<Rig> {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => void rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  const fake = await FakeDiscord.start({ guilds: [GUILD_SEED] });
  const dir = mkdtempSync(join(tmpdir(), 'matchday-discord-'));
  const config = loadConfig({
    STORE_URL: `sqlite://${join(dir, 'matchday.sqlite')}`,
    ESPORTS_SEED: String(options.seed ?? 42),
    // The embedded service's budget: tests play hours of notifications in seconds.
    ESPORTS_RATE: '10000',
    LOG_LEVEL: 'debug',
    DISCORD_TOKEN: fake.token,
    DISCORD_APP_ID: fake.appId,
    DISCORD_API_URL: fake.apiUrl,
  });
  const logs: string[] = [];
  const secrets = new Set(config.secrets);
  const logger = createLogger({
    level: 'debug',
    secrets,
    destination: { write: (line: string) => void logs.push(line) },
  });
  const clock = new Clock({ start: options.at, frozen: true });
  const app = await createApp(config, {
    clock,
    logger,
    secrets,
    perUserLimit: { count: 1_000_000, windowMs: 1000 },
    ...(options.commands ? { commands: options.commands } : {}),
  });
  await registerCommands({
    token: fake.token,
    appId: fake.appId,
    apiUrl: fake.apiUrl,
    guildId: GUILD,
    commands: app.runtime.commands,
  });
  const bot = await startDiscord(app, {
    token: config.discord!.token,
    appId: config.discord!.appId!,
    apiUrl: config.discord!.apiUrl!,
    deferAfterMs: options.deferAfterMs ?? 2000,
    client: { rest: { retries: 0, timeout: 5000 } },
    // Pacing is tested on its own (delivery.test.ts); here it would only slow the timeline down.
    delivery: { perChannel: { count: 10_000, windowMs: 1000 }, global: { count: 10_000, windowMs: 1000 } },
  });
  return {
    fake,
    app,
    bot,
    clock,
    logs,
    rejections,
    dir,
    async close() {
      await app.close();
      await fake.close();
      process.off('unhandledRejection', onRejection);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
