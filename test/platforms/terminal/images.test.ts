/**
 * Standings pictures in the terminal: the text table as before, and the PNG
 * saved in a folder with its path under the table.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Reply } from '../../../src/bot/reply.ts';
import { saveImages } from '../../../src/platforms/terminal/images.ts';
import { renderReply } from '../../../src/platforms/terminal/render.ts';
import { tablePng } from '../../../src/render/standings-image.ts';

const dir = mkdtempSync(join(tmpdir(), 'matchday-images-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const png = tablePng({ title: 'Group A', columns: [{ header: 'Team' }], rows: [['Iron Pilots']] });
const reply: Reply = {
  cards: [
    {
      title: 'Group A',
      table: { columns: [{ header: 'Team' }], rows: [[['Iron Pilots']]] },
      image: { png, name: '../../etc/standings-7.png', alt: 'Group A: the table' },
    },
  ],
};

describe('pictures in the terminal', () => {
  it('prints the text table and the path of the saved PNG', () => {
    const text = renderReply(saveImages(reply, join(dir, 'images')), {
      colour: false,
      timezone: 'UTC',
      width: 400,
    });
    const path = join(dir, 'images', 'standings-7.png');
    expect(text).toContain('Iron Pilots');
    expect(text).toContain(`[image: Group A: the table]: ${path}`);
    expect(readFileSync(path).equals(png)).toBe(true);
    // The name from the reply cannot lead out of the folder.
    expect(existsSync(join(dir, 'etc'))).toBe(false);
  });

  it('still answers with the table when the folder is not writable', () => {
    const locked = join(dir, 'locked');
    saveImages({ cards: [] }, locked);
    rmSync(locked, { recursive: true, force: true });
    const parent = join(dir, 'ro');
    saveImages(reply, parent);
    chmodSync(parent, 0o500);
    try {
      const text = renderReply(saveImages(reply, join(parent, 'sub')), { colour: false, timezone: 'UTC' });
      expect(text).toContain('Iron Pilots');
      // root may write anyway; either the file is there or the card says it was not saved.
      expect(text).toMatch(/standings-7\.png|not saved/);
    } finally {
      chmodSync(parent, 0o700);
    }
  });
});
