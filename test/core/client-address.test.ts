/** Which peers count as a proxy whose X-Forwarded-For is read (`src/core/client-address.ts`): pure logic. */
import { describe, expect, it } from 'vitest';
import { isPrivate } from '../../src/core/client-address.ts';

describe('isPrivate', () => {
  it.each([
    '127.0.0.1',
    '127.9.9.9',
    '::1',
    '::ffff:127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.10',
    '169.254.0.5',
    'fd12:3456::1',
    'fe80::1',
  ])('%s is on this host or the private network', (address) => {
    expect(isPrivate(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '172.32.0.1',
    '172.15.0.1',
    '192.169.0.1',
    '::ffff:1.2.3.4',
    '2001:db8::1',
    'unknown',
    '',
  ])('%s is not', (address) => {
    expect(isPrivate(address)).toBe(false);
  });
});
