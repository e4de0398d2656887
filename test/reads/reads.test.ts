/**
 * The one read model (src/reads/reads.ts): a command answers what the service holds whether the
 * process's feed has read the window or not (a `matchday ask` reader, a bot just started), and
 * the stored names and snapshot belong to the world they came from (src/feed/world-store.ts).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import { createNameIndex } from '../../src/bot/names.ts';
import { replyText } from '../../src/bot/reply.ts';
import { Runtime } from '../../src/bot/runtime.ts';
import { createClient } from '../../src/client/client.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { createFeed, type Feed } from '../../src/feed/feed.ts';
import { SqliteSnapshotStore } from '../../src/feed/store.ts';
import { enterWorld, worldOf, worldScoped } from '../../src/feed/world-store.ts';
import { ADMIN, call, type Stack, startStack, tenantWith } from '../commands/helpers.ts';

let stack: Stack;
let client: EsportsClient;
let feed: Feed;
let fed: Runtime;

beforeAll(async () => {
  stack = await startStack();
  client = createClient({
    baseUrl: stack.service.url,
    secret: stack.service.secret,
    rate: { perSecond: 10_000, burst: 10_000 },
  });
  // A reader's feed, as `matchday ask` runs on a fresh store: the live listing read, the window not.
  feed = createFeed({ client, clock: stack.clock, mode: 'reader' });
  await feed.tick();
  expect(feed.ready).toBe(true);
  expect(feed.filling).toBe(true);
  fed = new Runtime({
    commands,
    client,
    names: stack.names,
    picture: feed,
    tenants: stack.tenants,
    clock: stack.clock,
    logger: pino({ level: 'silent' }),
    perUserLimit: { count: 1_000_000, windowMs: 1000 },
  });
}, 120_000);

afterAll(async () => {
  await client.close();
  await stack.close();
});

async function viaReader(tenantKey: string, command: string, args: Record<string, unknown>) {
  const result = await fed.run({
    platform: 'terminal',
    tenantKey,
    user: ADMIN,
    channel: { id: 'c-main', name: 'main' },
    command,
    args,
  });
  return { outcome: result.outcome, text: replyText(result.reply, true) };
}

describe('the read model over a feed that has not read the window', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['series', { when: 'upcoming', limit: 3 }],
    ['series', { when: 'recent' }],
    ['schedule', {}],
    ['schedule', { day: 'tomorrow' }],
    ['casters', {}],
  ];
  for (const [command, args] of cases) {
    it(`answers /${command} ${JSON.stringify(args)} whole, as the service does`, async () => {
      const tenant = await tenantWith(stack, { spoilers: 'show' });
      const direct = await call(stack, command, args, { tenant });
      const read = await viaReader(tenant, command, args);
      expect(direct.outcome).toBe('ok');
      expect(read.outcome).toBe('ok');
      expect(read.text).toBe(direct.revealed);
      expect(read.text).not.toMatch(/Still reading|may be incomplete|No upcoming series/);
    });
  }
});

describe('a player asked for before the players are loaded', () => {
  it('is found by nick with a few filtered reads, not a walk of every page', async () => {
    const names = createNameIndex({ client, clock: stack.clock });
    await names.refresh();
    const [player] = await client.players.list({ take: 1, order: 'id-asc' });
    const before = client.stats().upstreamTotal;
    const id = await names.resolve('player', player!.nick_name.toUpperCase());
    const spent = client.stats().upstreamTotal - before;
    expect(names.player(id)?.nick_name).toBe(player!.nick_name);
    // The nick, last and first name reads (the whole list, over a hundred pages, loads behind them).
    expect(spent).toBeGreaterThanOrEqual(1);
    expect(spent).toBeLessThan(10);
    names.stop();
  });

  it('answers a nick no player has as a user error, not an outage', async () => {
    const names = createNameIndex({ client, clock: stack.clock });
    await names.refresh();
    await expect(names.resolve('player', 'Zzqxnobodyzz')).rejects.toMatchObject({ audience: 'user' });
    names.stop();
  });
});

describe('stored names and snapshots of one world', () => {
  it('keeps each world to itself on one store and says once when the world changed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'matchday-world-'));
    const store = new SqliteSnapshotStore(join(dir, 'feed.sqlite'));
    const seven = worldOf({ seed: 7 });
    const fortyTwo = worldOf({ seed: 42 });
    const real = worldOf({ seed: 42, url: 'https://esports.example/v3', secret: 'not-logged' });
    expect(new Set([seven, fortyTwo, real]).size).toBe(3);
    expect(real).not.toContain('not-logged');
    const said: string[] = [];
    const logger = { info: (_: object, msg?: string) => said.push(msg ?? ''), warn: () => undefined };

    await enterWorld(store, seven, 1, logger);
    await worldScoped(store, seven).write('names', { at: 1, value: '"seven"' });
    expect(said).toEqual([]);

    await enterWorld(store, fortyTwo, 2, logger);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('seed 7');
    expect(said[0]).toContain('start afresh');
    // The new world reads nothing of the old one; the old one's document is still its own.
    expect(await worldScoped(store, fortyTwo).read('names')).toBeUndefined();
    expect((await worldScoped(store, seven).read('names'))?.value).toBe('"seven"');
    // The same world again: nothing to say.
    await enterWorld(store, fortyTwo, 3, logger);
    expect(said).toHaveLength(1);
    await store.close();
  });
});
