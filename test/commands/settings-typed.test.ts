/**
 * `/settings` values as people type them: a tier range ("1-3") and a time without its leading zero
 * ("9:00"), parsed and run through the real runtime; and the parsing itself, with what it refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import { clockRange, clockTime, parseTiers } from '../../commands/settings-parse.ts';
import { parseCommandText } from '../../src/bot/text-args.ts';
import { zoneName } from '../../src/bot/time-format.ts';
import { translator } from '../../src/i18n/i18n.ts';
import { call, type Stack, startStack, tenantWith } from './helpers.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('/settings typed', () => {
  it('takes tiers 1-3 and digest time:9:00, and stores them', async () => {
    const tenant = await tenantWith(stack, {});
    const typed = (line: string) => {
      const parsed = parseCommandText(line, commands);
      return call(stack, parsed.command, parsed.args, { tenant, subcommand: parsed.subcommand! });
    };
    const tiers = await typed('/settings tiers 1-3');
    expect(tiers.outcome, tiers.text).toBe('ok');
    expect(tiers.text).toContain('Tiers: 1, 2, 3.');
    const digest = await typed('/settings digest time:9:00');
    expect(digest.outcome, digest.text).toBe('ok');
    expect(digest.text).toContain('Digest: 09:00');
    const settings = [...stack.tenants.docs.values()].find((s) => s.digestTime === '09:00');
    expect(settings?.tiers).toEqual([1, 2, 3]);
    const bad = await typed('/settings digest time:24:00');
    expect(bad.outcome).toBe('user-error');
    expect(bad.text).toContain('"24:00" is not a time of day');
  });

  it('shows an offset zone as typed people write it (UTC+02:00), never as the inverted Etc/GMT-2', async () => {
    const tenant = await tenantWith(stack, {});
    const parsed = parseCommandText('/settings timezone UTC+2', commands);
    const result = await call(stack, parsed.command, parsed.args, { tenant, subcommand: parsed.subcommand! });
    expect(result.outcome, result.text).toBe('ok');
    expect(result.text).toContain('Timezone: UTC+02:00');
    expect(result.text).not.toContain('Etc/GMT');
    const shown = await call(stack, 'settings', {}, { tenant, subcommand: 'show' });
    expect(shown.text).toMatch(/Timezone: UTC\+02:00/);
    expect(zoneName('Etc/GMT+5')).toBe('UTC-05:00');
    expect(zoneName('Etc/GMT-14')).toBe('UTC+14:00');
    expect(zoneName('Europe/Berlin')).toBe('Europe/Berlin');
  });

  it('reads ranges and times, and refuses what is neither', () => {
    const t = translator('en');
    expect(parseTiers(t, '1-3', false)).toEqual([1, 2, 3]);
    expect(parseTiers(t, '3–2, 4', false)).toEqual([2, 3, 4]);
    expect(() => parseTiers(t, '1-5', false)).toThrow(/not a tier/);
    expect(clockTime('9:00')).toBe('09:00');
    expect(clockTime('23:59')).toBe('23:59');
    expect(clockTime('24:00')).toBeUndefined();
    expect(clockTime('9:60')).toBeUndefined();
    expect(clockTime('nine')).toBeUndefined();
    expect(clockRange('23:00-08:00')).toEqual({ from: '23:00', to: '08:00' });
    expect(clockRange('23:00 to 8:00')).toEqual({ from: '23:00', to: '08:00' });
    expect(clockRange('23:00')).toBeUndefined();
    expect(clockRange('25:00-08:00')).toBeUndefined();
  });
});
