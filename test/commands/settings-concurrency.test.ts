/**
 * As admins see it: several admins of one server change settings at the same
 * moment through the real runtime and commands, on a real SQLite store; every one told "Saved" or
 * "Now following" finds the change stored.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import type { CommandUser } from '../../src/bot/command.ts';
import { replyText } from '../../src/bot/reply.ts';
import { type CommandCall, Runtime } from '../../src/bot/runtime.ts';
import { openTenantStore, type TenantStore } from '../../src/bot/tenants.ts';
import { APIS, type Stack, startStack } from './helpers.ts';

let stack: Stack;
let store: TenantStore;
let runtime: Runtime;
const dir = mkdtempSync(join(tmpdir(), 'matchday-settings-race-'));

describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
    const path = join(dir, 'matchday.sqlite');
    store = await openTenantStore(
      { kind: 'sqlite', url: `sqlite://${path}`, path },
      { logger: pino({ level: 'silent' }) },
    );
    runtime = new Runtime({
      commands,
      client: stack.client,
      names: stack.names,
      tenants: store,
      clock: stack.clock,
      logger: pino({ level: 'silent' }),
      perUserLimit: { count: 1000, windowMs: 1000 },
    });
  });
  afterAll(async () => {
    await store.close();
    await stack.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const admin = (i: number): CommandUser => ({ id: `admin-${i}`, name: `admin ${i}`, isAdmin: true });
  const discordCall = (tenantKey: string, i: number, call: Partial<CommandCall>): CommandCall => ({
    platform: 'discord',
    tenantKey,
    user: admin(i),
    channel: { id: 'c-main', name: 'main' },
    command: 'settings',
    args: {},
    ...call,
  });

  describe('admins changing settings at the same moment', () => {
    it('8 admins following 8 different teams at once: all 8 told "Now following", all 8 stored', async () => {
      const teams = stack.service.world.catalog.teams.slice(10, 18);
      const results = await Promise.all(
        teams.map((team, i) =>
          runtime.run(
            discordCall('race-follow', i, {
              command: 'follow',
              subcommand: 'team',
              args: { team: String(team.id) },
            }),
          ),
        ),
      );
      for (const [i, result] of results.entries()) {
        expect(result.outcome).toBe('ok');
        expect(replyText(result.reply)).toContain(`Now following ${teams[i]!.name}`);
      }
      const stored = await store.get('discord:race-follow');
      expect([...stored.follows].sort((a, b) => a - b)).toEqual(teams.map((t) => t.id).sort((a, b) => a - b));
    });

    it('3 admins changing timezone, a channel and tiers at once: all 3 told "Saved", all 3 stored', async () => {
      const results = await Promise.all([
        runtime.run(discordCall('race-three', 0, { subcommand: 'timezone', args: { zone: 'Asia/Tokyo' } })),
        runtime.run(discordCall('race-three', 1, { subcommand: 'channel-add', args: { channel: '555' } })),
        runtime.run(discordCall('race-three', 2, { subcommand: 'tiers', args: { tiers: '1,2,3' } })),
      ]);
      for (const result of results) {
        expect(result.outcome).toBe('ok');
        expect(replyText(result.reply)).toContain('Saved.');
      }
      const stored = await store.get('discord:race-three');
      expect(stored.timezone).toBe('Asia/Tokyo');
      expect(stored.channels.map((c) => c.id)).toEqual(['555']);
      expect(stored.tiers).toEqual([1, 2, 3]);
    });

    it('2 admins adding the same channel at once: one is told "Added", the other that it is already set up', async () => {
      const results = await Promise.all(
        [0, 1].map((i) =>
          runtime.run(discordCall('race-same', i, { subcommand: 'channel-add', args: { channel: '777' } })),
        ),
      );
      const texts = results.map((r) => replyText(r.reply));
      expect(texts.filter((t) => t.includes('Saved. Added'))).toHaveLength(1);
      expect(results.filter((r) => r.code === 'CHANNEL_EXISTS')).toHaveLength(1);
      expect((await store.get('discord:race-same')).channels.map((c) => c.id)).toEqual(['777']);
    });
  });
});
