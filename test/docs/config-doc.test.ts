/**
 * docs/configuration.md is generated from src/config-variables.ts by scripts/config-doc.ts: it must
 * be exactly what the script writes now, and name every variable with what its schema accepts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accepted, CONFIG_DOC_PATH, configDoc } from '../../scripts/config-doc.ts';
import { CONFIG_VARIABLES, SECRET_VARIABLES } from '../../src/config-variables.ts';

describe('docs/configuration.md', () => {
  it('is what scripts/config-doc.ts writes from src/config-variables.ts (run it after a change)', () => {
    expect(readFileSync(CONFIG_DOC_PATH, 'utf8')).toBe(configDoc());
  });

  it('has one row per variable, in the order of src/config-variables.ts, secrets marked', () => {
    const rows = configDoc()
      .split('\n')
      .filter((line) => line.startsWith('| `'));
    expect(rows.map((row) => row.slice(3, row.indexOf('`', 3)))).toEqual(CONFIG_VARIABLES);
    for (const row of rows) {
      const name = row.slice(3, row.indexOf('`', 3));
      expect(row.includes('**Secret.**'), name).toBe(SECRET_VARIABLES.has(name));
    }
  });

  it('says what a schema accepts, and a page that differs is caught', () => {
    expect(accepted(z.enum(['on', 'off']))).toBe('`on`, `off`');
    expect(accepted(z.coerce.number().int().min(1).max(65_535))).toBe('a whole number from 1 to 65535');
    expect(accepted(z.string().startsWith('xoxb-'))).toBe('text starting with `xoxb-`');
    expect(accepted(z.string())).toBe('text');
    const stale = configDoc().replace('`LOG_LEVEL`', '`LOG_LEVELS`');
    expect(stale).not.toBe(configDoc());
  });
});
