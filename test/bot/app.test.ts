import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app.ts';
import { defineCommand } from '../../src/bot/command.ts';
import { replyText } from '../../src/bot/reply.ts';
import type { CommandCall } from '../../src/bot/runtime.ts';
import { parseCommandText } from '../../src/bot/text-args.ts';
import { loadConfig } from '../../src/config.ts';
import { Clock } from '../../src/core/clock.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import { captureLogs, type LogCapture } from './helpers.ts';

const SERVICE_SECRET = 'svc-secret-7f3a9c1e5b';
const DISCORD_TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456';
const SLACK_BOT_TOKEN = 'xoxb-1111-2222-abcdefSECRET';
const SLACK_SIGNING_SECRET = 'signing-secret-0a9b8c7d';
const RESPONSE_URL = 'http://127.0.0.1:9/response/capability-abc123';

/** A command that logs what a careless platform might: a payload with a response_url and a token. */
const leaky = defineCommand({
  name: 'leaky',
  description: 'Fails with secrets in its error',
  async run() {
    throw Object.assign(new Error(`upstream said no to ${SERVICE_SECRET} via ${RESPONSE_URL}`), {
      payload: { response_url: RESPONSE_URL, token: DISCORD_TOKEN },
    });
  },
});

describe('createApp against a service with its own secret', () => {
  let dir: string;
  let service: RunningService;
  let app: App;
  let logs: LogCapture;
  const clock = new Clock({ start: new Date('2026-06-01T12:00:00Z'), frozen: true });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'matchday-app-'));
    service = await startService({ port: 0, seed: 3, clock, secret: SERVICE_SECRET, rate: 0 });
    const config = loadConfig({
      ESPORTS_API_URL: service.url,
      ESPORTS_API_SECRET: SERVICE_SECRET,
      ESPORTS_RATE: '100',
      STORE_URL: `sqlite://${join(dir, 'matchday.sqlite')}`,
      LOG_LEVEL: 'trace',
      DISCORD_TOKEN,
      SLACK_BOT_TOKEN,
      SLACK_SIGNING_SECRET,
    });
    logs = captureLogs(config.secrets);
    const { commands } = await import('../../commands/index.ts');
    app = await createApp(config, { clock, logger: logs.logger, commands: [...commands, leaky] });
  });
  afterAll(async () => {
    await app?.close();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = (line: string): CommandCall => ({
    platform: 'slack',
    tenantKey: 'T9',
    user: { id: 'U1', name: 'Ann', isAdmin: true },
    channel: { id: 'C1' },
    ...parseCommandText(line, app.runtime.commands),
  });

  it('uses the configured service instead of embedding one, and answers commands through it', async () => {
    expect(app.service).toBeUndefined();
    const before = service.requests;
    const result = await app.runtime.run(call('/series'));
    expect(result.outcome).toBe('ok');
    expect(replyText(result.reply)).toMatch(/series/i);
    expect(service.requests).toBeGreaterThan(0);
    expect(before).toBeGreaterThan(0); // the name index loaded through it at start-up
  });

  it('keeps every secret out of a whole run of logs: start-up, commands, service failures and bugs', async () => {
    await app.runtime.run(call('/help'));
    service.faults.errorRate = 1;
    const failing = await app.runtime.run(call('/schedule'));
    service.faults.errorRate = 0;
    expect(['ok', 'error']).toContain(failing.outcome);
    const bug = await app.runtime.run(call('/leaky'));
    expect(bug.outcome).toBe('error');
    expect(replyText(bug.reply)).not.toContain(SERVICE_SECRET);

    const text = logs.text();
    expect(logs.lines.length).toBeGreaterThan(10);
    expect(text).toContain('command failed');
    for (const secret of [
      SERVICE_SECRET,
      DISCORD_TOKEN,
      SLACK_BOT_TOKEN,
      SLACK_SIGNING_SECRET,
      'capability-abc123',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('answers a store failure with a clear message where settings are needed, and with defaults elsewhere', async () => {
    await app.tenants.close();
    const settings = await app.runtime.run(call('/settings show'));
    expect(settings.outcome).toBe('error');
    expect(settings.code).toBe('STORE_UNAVAILABLE');
    expect(replyText(settings.reply)).toContain(
      'Settings are unavailable right now: the settings store cannot be reached.',
    );
    // Other users: the per-user pace limit is not what is tested here.
    const follows = await app.runtime.run({
      ...call('/follow list'),
      user: { id: 'U2', name: 'Bo', isAdmin: true },
    });
    expect(follows.code).toBe('STORE_UNAVAILABLE');
    // /help does not need the settings: it answers, and says it used the defaults.
    const help = await app.runtime.run({ ...call('/help'), user: { id: 'U3', name: 'Cy', isAdmin: false } });
    expect(help.outcome).toBe('ok');
    expect(replyText(help.reply)).toContain(
      'Settings are unavailable right now: the settings store cannot be reached.',
    );
    expect(replyText(help.reply)).toContain('This answer uses the default settings');
  });
});

describe('createApp with a slow service (start-up: banner first, data behind it)', () => {
  it('resolves before the name index is loaded, which then fills in the background', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'matchday-app-slow-'));
    const clock = new Clock({ start: new Date('2026-06-01T12:00:00Z'), frozen: true });
    const service = await startService({ port: 0, seed: 3, clock, secret: SERVICE_SECRET, rate: 0 });
    service.faults.latencyMs = 300;
    const config = loadConfig({
      ESPORTS_API_URL: service.url,
      ESPORTS_API_SECRET: SERVICE_SECRET,
      ESPORTS_RATE: '100',
      STORE_URL: `sqlite://${join(dir, 'matchday.sqlite')}`,
    });
    const logs = captureLogs(config.secrets);
    const app = await createApp(config, {
      clock,
      logger: logs.logger,
      feed: 'poller',
      warmInBackground: true,
    });
    try {
      // Ready for the banner while the first name-index request is still on its way.
      expect(app.names.search('team', 'a')).toEqual([]);
      const until = Date.now() + 25_000;
      while (app.names.search('team', 'a').length === 0 && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(app.names.search('team', 'a').length).toBeGreaterThan(0);
    } finally {
      await app.close();
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);
});
