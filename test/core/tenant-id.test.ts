import { describe, expect, it } from 'vitest';
import {
  discordTenantId,
  formatTenantId,
  isTenantId,
  parseTenantId,
  slackTenantId,
  slackTenantKey,
  TERMINAL_TENANT_ID,
} from '../../src/core/tenant-id.ts';

describe('tenant ids', () => {
  it('are <platform>:<key> for a server, a workspace, a Grid workspace and the terminal', () => {
    expect(discordTenantId('123456789012345678')).toBe('discord:123456789012345678');
    expect(slackTenantId('T0123ABCD')).toBe('slack:T0123ABCD');
    expect(slackTenantId('T0123ABCD', null)).toBe('slack:T0123ABCD');
    expect(slackTenantKey('T0123ABCD', 'E0999ZZZ')).toBe('E0999ZZZ.T0123ABCD');
    expect(slackTenantId('T0123ABCD', 'E0999ZZZ')).toBe('slack:E0999ZZZ.T0123ABCD');
    expect(TERMINAL_TENANT_ID).toBe('terminal:local');
  });

  it('parse back into their parts', () => {
    expect(parseTenantId('discord:42')).toEqual({ platform: 'discord', key: '42' });
    expect(parseTenantId(slackTenantId('T1', 'E1'))).toEqual({ platform: 'slack', key: 'E1.T1' });
    expect(parseTenantId(TERMINAL_TENANT_ID)).toEqual({ platform: 'terminal', key: 'local' });
    for (const platform of ['discord', 'slack', 'terminal'] as const) {
      expect(parseTenantId(formatTenantId(platform, 'k-1_2.3'))).toEqual({ platform, key: 'k-1_2.3' });
    }
  });

  it('refuse what is not one: unknown platforms, empty, long or odd keys, extra colons', () => {
    for (const bad of [
      '',
      'discord',
      'discord:',
      'teams:123',
      'Discord:123',
      'discord:12:34',
      'slack:T1/C2',
      'discord:12 34',
      `discord:${'1'.repeat(65)}`,
    ]) {
      expect(parseTenantId(bad), bad).toBeUndefined();
      expect(isTenantId(bad), bad).toBe(false);
    }
    expect(isTenantId(`discord:${'1'.repeat(64)}`)).toBe(true);
  });
});
