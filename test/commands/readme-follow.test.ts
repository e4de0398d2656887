/**
 * The "Follow privately" examples of docs/commands.md, run as typed on the embedded world that
 * `npm start` serves (seed 42), on the terminal, Slack and Discord: every command line of the
 * section's code blocks, and every inline example with its options filled in, answers ok (`/me`
 * and `/settings` privately). The lines come from docs/commands.md itself, so an example that stops working fails here.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import { replyText } from '../../src/bot/reply.ts';
import { Runtime } from '../../src/bot/runtime.ts';
import { channelSubscriptionSchema } from '../../src/bot/settings.ts';
import { parseCommandText } from '../../src/bot/text-args.ts';
import { openUserStore, type UserStore } from '../../src/bot/users.ts';
import type { Platform } from '../../src/core/tenant-id.ts';
import { type Stack, startStack } from './helpers.ts';

const PAGE = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8');

/** The section's command lines: code-block lines and inline spans with options, no placeholders. */
function examples(): string[] {
  const start = PAGE.indexOf('## Follow privately');
  const section = PAGE.slice(start, PAGE.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/```\n([\s\S]*?)```/g)].flatMap((m) =>
    m[1]!.split('\n').filter((line) => line.startsWith('/')),
  );
  const inline = [...section.matchAll(/`(\/(?:me|follow|settings calendar)[^`]*)`/g)]
    .map((m) => m[1]!)
    // An example gives options or a positional word ("/me calendar renew"); "/me follow" alone names a command.
    .filter((line) => (/\w:\S/.test(line) || line.split(' ').length >= 3) && !/[<|]|\.\.\./.test(line));
  return [...new Set([...blocks, ...inline])];
}

let stack: Stack;
let users: UserStore;
let runtime: Runtime;
let dir: string;

beforeAll(async () => {
  stack = await startStack();
  dir = mkdtempSync(join(tmpdir(), 'matchday-readme-'));
  const path = join(dir, 'matchday.sqlite');
  users = await openUserStore(
    { kind: 'sqlite', url: `sqlite://${path}`, path },
    { logger: pino({ level: 'silent' }) },
  );
  runtime = new Runtime({
    commands,
    client: stack.client,
    names: stack.names,
    tenants: stack.tenants,
    users,
    calendarUrl: (token: string) => `http://127.0.0.1:8787/calendar/${token}.ics`,
    clock: stack.clock,
    logger: pino({ level: 'silent' }),
    perUserLimit: { count: 1_000_000, windowMs: 1000 },
  });
});
afterAll(async () => {
  await users?.close();
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('docs/commands.md "Follow privately" examples', () => {
  it('are found in docs/commands.md (the section has its examples)', () => {
    const lines = examples();
    expect(lines).toContain('/me follow team:"Iron Pilots"');
    expect(lines).toContain('/me calendar');
    expect(lines).toContain('/me calendar renew');
    expect(lines).toContain('/settings calendar channel:#matches');
    expect(lines).toContain('/follow organisation organisation:"Northwind Esports"');
    expect(lines.length).toBeGreaterThanOrEqual(14);
  });

  it.each<Platform>(['terminal', 'slack', 'discord'])(
    'run as typed and answer privately on %s',
    async (platform) => {
      const tenantKey = `readme-${platform}`;
      const tenantId = `${platform}:${tenantKey}`;
      // The page's channel, set up as "/settings channel-add channel:#matches" would.
      await stack.tenants.save(tenantId, {
        ...(await stack.tenants.get(tenantId)),
        channels: [channelSubscriptionSchema.parse({ id: 'matches', name: 'matches' })],
      });
      for (const line of examples()) {
        const parsed = parseCommandText(line, commands);
        const execution = await runtime.run({
          platform,
          tenantKey,
          user: { id: `fan-${platform}`, name: 'fan', isAdmin: true },
          channel: { id: 'matches', name: 'matches' },
          command: parsed.command,
          ...(parsed.subcommand ? { subcommand: parsed.subcommand } : {}),
          args: parsed.args,
        });
        expect(execution.outcome, `${line}: ${execution.message ?? ''}`).toBe('ok');
        // Personal follows and settings answer only the person; a server's /follow answers the channel.
        if (!line.startsWith('/follow')) expect(execution.reply.ephemeral, line).toBe(true);
        expect(replyText(execution.reply), line).not.toMatch(/Did you mean|Not quite/);
      }
      // What the examples left: the follows of the last lines, the person's own.
      const profile = await users.get(
        platform === 'slack' ? `slack:${tenantKey}.fan-${platform}` : `${platform}:fan-${platform}`,
      );
      expect(profile.leads).toEqual([15, 60]);
      expect(profile.timezone).toBe('Europe/Berlin');
      expect(profile.quiet).toEqual({ from: '23:00', to: '08:00' });
      expect(profile.follows.length).toBeGreaterThan(1);
    },
  );
});
