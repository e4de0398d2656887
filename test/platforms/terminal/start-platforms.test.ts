/**
 * `matchday start` with Slack configured: the same entry point loads the Slack platform instead of
 * the terminal chat, answers a slash command through it, and shuts down cleanly on SIGTERM. The real
 * Bolt app runs in the child process against the loopback Slack fake.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../../src/config.ts';
import { FakeSlack } from '../../fakes/slack.ts';

const BIN = join(import.meta.dirname, '../../../bin/matchday.mjs');
const BOT_TOKEN = 'xoxb-start-test-bot-token-9f8e7d';
const APP_TOKEN = 'xapp-start-test-app-token-1a2b3c';

describe('matchday start with Slack configured', () => {
  let fake: FakeSlack;
  let dir: string;
  let child: ChildProcess;
  let stdout = '';
  let stderr = '';
  let exited: Promise<number | null>;

  beforeAll(async () => {
    fake = await FakeSlack.start({
      botToken: BOT_TOKEN,
      appToken: APP_TOKEN,
      users: [{ id: 'U1', name: 'ann', isAdmin: true }],
      channels: [{ id: 'C1', name: 'general' }],
    });
    dir = mkdtempSync(join(tmpdir(), 'matchday-start-'));
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (value !== undefined && !(CONFIG_VARIABLES as string[]).includes(key)) env[key] = value;
    }
    Object.assign(env, {
      STORE_URL: `sqlite://${join(dir, 'matchday.sqlite')}`,
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_APP_TOKEN: APP_TOKEN,
      SLACK_API_URL: fake.apiUrl,
      LOG_LEVEL: 'debug',
    });
    child = spawn(process.execPath, [BIN, 'start'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
    });
    exited = new Promise((resolve) => child.on('close', resolve));
  }, 60_000);

  afterAll(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await fake?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects to Slack instead of opening the terminal chat, answers a command, and stops on SIGTERM', async () => {
    await fake.waitFor(
      () => fake.socketConnected && stdout.includes('Matchday is running'),
      60_000,
      'the Slack connection',
    );
    expect(stdout).not.toContain('in your terminal');
    expect(stdout).toMatch(/notify\s+reminders, live cards and digests are on/);

    const { payload, responseId } = fake.slashCommandPayload({ text: 'help', userId: 'U1', channelId: 'C1' });
    await fake.sendEnvelope('slash_commands', payload);
    const answer = await fake.waitFor(() => fake.responsesTo(responseId)[0], 10_000, 'the answer');
    expect(JSON.stringify(answer.body)).toContain('series');

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // A whole run's logs (debug level) carry neither token nor the response URL.
    expect(stderr).toContain('"level"');
    for (const secret of [BOT_TOKEN, APP_TOKEN, responseId]) expect(stderr + stdout).not.toContain(secret);
  }, 90_000);
});
