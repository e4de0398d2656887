/**
 * The profile store on both backends: a real SQLite file, and a real Redis when
 * REDIS_URL is set. Profiles live apart from tenant settings; concurrent changes are all kept;
 * calendar tokens lead to their owner only while the profile holds them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { openTenantStore } from '../../src/bot/tenants.ts';
import { openUserStore } from '../../src/bot/users.ts';
import type { Config } from '../../src/config.ts';

const logger = pino({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'matchday-users-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sqlitePath = join(dir, 'matchday.sqlite');
const backends: [string, Config['store'] | undefined][] = [
  ['SQLite', { kind: 'sqlite', url: `sqlite://${sqlitePath}`, path: sqlitePath }],
  ['Redis', process.env.REDIS_URL ? { kind: 'redis', url: process.env.REDIS_URL } : undefined],
];

describe.each(backends)('the profile store on %s', (name, store) => {
  it.skipIf(!store)(
    `keeps profiles apart from tenant settings and from each other${store ? '' : ' (REDIS_URL not set)'}`,
    async () => {
      const mirrorPath = join(dir, `mirror-${name}.sqlite`);
      const users = await openUserStore(store!, { logger, mirrorPath });
      const tenants = await openTenantStore(store!, { logger, mirrorPath });
      const a = `discord:a-${name}-${Date.now()}`;
      const b = `discord:b-${name}-${Date.now()}`;
      try {
        // Eight follows at once, each applied to the latest profile: all eight are kept.
        await Promise.all(
          [...Array(8).keys()].map((i) =>
            users.update(a, (p) => ({
              ...p,
              follows: [...p.follows, { team: 100 + i, noQualifiers: false }],
            })),
          ),
        );
        expect((await users.get(a)).follows.map((f) => f.team).sort()).toEqual([
          100, 101, 102, 103, 104, 105, 106, 107,
        ]);
        expect((await users.get(b)).follows).toEqual([]);
        // Profiles are no tenants: the notifier's tenant list does not see them.
        expect((await tenants.list()).some((id) => id.includes(`-${name}-`))).toBe(false);
        expect(await users.users()).toContain(a);

        const token = await users.calendarToken(a);
        expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(await users.calendarToken(a)).toBe(token);
        expect((await users.ownerOfToken(token))?.userKey).toBe(a);
        // The token index documents are not listed as people.
        expect((await users.users()).every((id) => !id.startsWith('calendar:'))).toBe(true);
        const renewed = await users.calendarToken(a, true);
        expect(renewed).not.toBe(token);
        expect(await users.ownerOfToken(token)).toBeUndefined();
        expect((await users.ownerOfToken(renewed))?.profile.follows).toHaveLength(8);
        // B's own token never leads to A.
        const theirs = await users.calendarToken(b);
        expect((await users.ownerOfToken(theirs))?.userKey).toBe(b);
        expect(await users.ownerOfToken('x'.repeat(43))).toBeUndefined();
        expect(await users.ownerOfToken('../../etc/passwd')).toBeUndefined();

        await expect(users.update('nobody', (p) => p)).rejects.toThrow(/is not a user/);
        await expect(users.update(a, (p) => ({ ...p, leads: [] }))).rejects.toThrow(
          /That is not valid: leads/,
        );
      } finally {
        await users.close();
        await tenants.close();
      }
    },
  );
});
