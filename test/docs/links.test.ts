/**
 * Every relative link of README.md and docs/*.md points to a file of the repository that exists,
 * and every `#anchor` to a heading of the page it names (GitHub's heading ids).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAGES = [
  join(ROOT, 'README.md'),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, 'docs', name)),
];

/** Markdown links `[text](target)` outside code blocks and code spans. */
function links(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

/** GitHub's id for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
}

describe('links in README.md and docs/', () => {
  it('finds the pages and their links', () => {
    expect(PAGES.length).toBeGreaterThan(5);
    expect(links('[a](docs/x.md) `[b](no.md)` [c](https://example.com)')).toEqual([
      'docs/x.md',
      'https://example.com',
    ]);
    expect(slug('Many processes on one Redis')).toBe('many-processes-on-one-redis');
    expect(slug('`/status`: is Matchday healthy in this server?')).toBe(
      'status-is-matchday-healthy-in-this-server',
    );
  });

  for (const page of PAGES) {
    it(`${relative(ROOT, page)}: every relative link resolves`, () => {
      const broken: string[] = [];
      for (const link of links(readFileSync(page, 'utf8'))) {
        if (/^[a-z]+:/i.test(link)) continue; // https:, mailto:
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target = path === '' ? page : join(dirname(page), path);
        if (!target.startsWith(ROOT) || !existsSync(target)) {
          broken.push(`${link} (no such file)`);
          continue;
        }
        if (anchor && target.endsWith('.md') && statSync(target).isFile() && !anchors(target).has(anchor)) {
          broken.push(`${link} (no such heading)`);
        }
      }
      expect(broken).toEqual([]);
    });
  }
});
