import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/bot/logger.ts';
import { openTenantStore } from '../../src/bot/tenants.ts';
import { subscriptionsOf } from '../../src/notify/plan.ts';
import { TERMINAL_CHANNEL, TERMINAL_TENANT_ID } from '../../src/platforms/terminal/chat.ts';
import { subscribeTerminalOnFirstStart } from '../../src/platforms/terminal/first-start.ts';

const dir = mkdtempSync(join(tmpdir(), 'matchday-terminal-first-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function store(name: string) {
  const path = join(dir, `${name}.sqlite`);
  return openTenantStore(
    { kind: 'sqlite', url: `sqlite://${path}`, path },
    { logger: createLogger({ level: 'silent', secrets: new Set() }) },
  );
}

describe('the terminal on first start', () => {
  it('subscribes its own channel to every kind for a new tenant, once', async () => {
    const tenants = await store('new');
    expect(await subscribeTerminalOnFirstStart(tenants)).toBe(true);
    const subs = subscriptionsOf(TERMINAL_TENANT_ID, await tenants.get(TERMINAL_TENANT_ID));
    expect(subs).toHaveLength(1);
    expect(subs[0]!.channelId).toBe(TERMINAL_CHANNEL.id);
    expect([...subs[0]!.kinds].sort()).toEqual(['digest', 'live', 'reminders', 'results']);
    // A second start finds the tenant and changes nothing.
    expect(await subscribeTerminalOnFirstStart(tenants)).toBe(false);
    expect((await tenants.get(TERMINAL_TENANT_ID)).channels).toHaveLength(1);
    await tenants.close();
  });

  it('leaves an existing tenant alone, even one without channels', async () => {
    const tenants = await store('existing');
    const settings = await tenants.get(TERMINAL_TENANT_ID);
    settings.timezone = 'Europe/Berlin';
    await tenants.save(TERMINAL_TENANT_ID, settings);
    expect(await subscribeTerminalOnFirstStart(tenants)).toBe(false);
    const after = await tenants.get(TERMINAL_TENANT_ID);
    expect(after.channels).toEqual([]);
    expect(after.timezone).toBe('Europe/Berlin');
    await tenants.close();
  });
});
