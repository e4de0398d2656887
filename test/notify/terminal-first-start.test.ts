import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/bot/logger.ts';
import { openTenantStore } from '../../src/bot/tenants.ts';
import { TERMINAL_TENANT_ID } from '../../src/core/tenant-id.ts';
import { subscriptionsOf } from '../../src/notify/plan.ts';
import { TERMINAL_CHANNEL } from '../../src/platforms/terminal/chat.ts';
import { subscribeTerminal } from '../../src/platforms/terminal/first-start.ts';

const dir = mkdtempSync(join(tmpdir(), 'matchday-terminal-first-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function store(name: string) {
  const path = join(dir, `${name}.sqlite`);
  return openTenantStore(
    { kind: 'sqlite', url: `sqlite://${path}`, path },
    { logger: createLogger({ level: 'silent', secrets: new Set() }) },
  );
}

describe('the terminal on each start', () => {
  const first = new Date('2026-11-23T10:00:00Z');
  const later = new Date('2026-11-24T18:30:00Z');

  it('subscribes its own channel to every kind for a new tenant, from now on', async () => {
    const tenants = await store('new');
    expect(await subscribeTerminal(tenants, first, 'America/Chicago')).toBe('subscribed');
    // A new terminal tenant shows times in the system's zone, not UTC.
    expect((await tenants.get(TERMINAL_TENANT_ID)).timezone).toBe('America/Chicago');
    const subs = subscriptionsOf(TERMINAL_TENANT_ID, await tenants.get(TERMINAL_TENANT_ID));
    expect(subs).toHaveLength(1);
    expect(subs[0]!.channelId).toBe(TERMINAL_CHANNEL.id);
    expect([...subs[0]!.kinds].sort()).toEqual(['digest', 'live', 'reminders', 'results']);
    expect(subs[0]!.since).toBe(first.getTime());
    // A later start keeps the one channel and moves its "since": nothing over before it is replayed.
    expect(await subscribeTerminal(tenants, later)).toBe('renewed');
    const after = await tenants.get(TERMINAL_TENANT_ID);
    expect(after.channels).toHaveLength(1);
    expect(after.channels[0]!.since).toBe(later.toISOString());
    await tenants.close();
  });

  it('leaves a tenant whose channel was removed without one, and its other settings alone', async () => {
    const tenants = await store('existing');
    const settings = await tenants.get(TERMINAL_TENANT_ID);
    settings.timezone = 'Europe/Berlin';
    await tenants.save(TERMINAL_TENANT_ID, settings);
    expect(await subscribeTerminal(tenants, later)).toBe('none');
    const after = await tenants.get(TERMINAL_TENANT_ID);
    expect(after.channels).toEqual([]);
    expect(after.timezone).toBe('Europe/Berlin');
    await tenants.close();
  });
});
