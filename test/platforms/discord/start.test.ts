/**
 * `matchday start` with DISCORD_TOKEN set runs Matchday on Discord: a real child process (the same
 * `bin/matchday.mjs` users run) connects to the loopback fake, answers a slash command, and shuts
 * down cleanly on SIGTERM. The terminal chat is not started.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord } from '../../fakes/discord.ts';
import { GUILD_SEED } from './rig.ts';

let fake: FakeDiscord;
let child: ChildProcess | undefined;
let dir: string;
let output = '';

beforeAll(async () => {
  fake = await FakeDiscord.start({ guilds: [GUILD_SEED] });
  dir = mkdtempSync(join(tmpdir(), 'matchday-start-'));
});
afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('matchday start with DISCORD_TOKEN', () => {
  it('connects to Discord, answers /help, and exits cleanly on SIGTERM', async () => {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DISCORD_TOKEN: fake.token,
      DISCORD_APP_ID: fake.appId,
      DISCORD_API_URL: fake.apiUrl,
      STORE_URL: `sqlite://${join(dir, 'matchday.sqlite')}`,
      ESPORTS_RATE: '10000',
      LOG_LEVEL: 'info',
    };
    child = spawn(process.execPath, ['bin/matchday.mjs', 'start'], {
      cwd: process.cwd(),
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk) => {
      output += String(chunk);
    });
    child.stderr!.on('data', (chunk) => {
      output += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));

    await fake.waitFor(() => fake.frames.some((f) => f.t === 'GUILD_CREATE'), 30_000, 'the bot to connect');
    await fake.waitFor(() => output.includes('Matchday is running'), 30_000, 'the start-up banner');
    // Guilds (1) and GuildScheduledEvents (1 << 16), neither privileged.
    expect(fake.identifies[0].intents).toBe(1 | (1 << 16));
    expect(output).not.toMatch(/Type \/help for the commands/); // no terminal chat

    const answer = await fake.answer({ command: 'help' }, 10_000);
    expect(answer.callbackTypes).toEqual([4]);
    expect(JSON.stringify(answer.message!.embeds)).toMatch(/series/);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).not.toContain(fake.token);
  }, 60_000);

  it('ends with a clear message and exit code 1 when Discord refuses the token, not a late unhandled rejection', async () => {
    const wrong = `${fake.token.slice(0, -4)}XXXX`;
    const failed = spawn(process.execPath, ['bin/matchday.mjs', 'start'], {
      cwd: process.cwd(),
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DISCORD_TOKEN: wrong,
        DISCORD_APP_ID: fake.appId,
        DISCORD_API_URL: fake.apiUrl,
        STORE_URL: `sqlite://${join(dir, 'refused.sqlite')}`,
        LOG_LEVEL: 'fatal',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    failed.stdout.on('data', (chunk: Buffer) => {
      said += chunk.toString();
    });
    failed.stderr.on('data', (chunk: Buffer) => {
      said += chunk.toString();
    });
    // The process ends by itself (the 30 s ready timer used to keep it alive, then crash it).
    const code = await new Promise<number | null>((resolve) => failed.once('exit', resolve));
    expect(code).toBe(1);
    expect(said).toContain('Matchday could not start: Could not connect to Discord');
    expect(said).not.toMatch(/Unhandled|unhandled|at .*\.ts:\d+/);
    expect(said).not.toContain(wrong);
  }, 25_000);
});
