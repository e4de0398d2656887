import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildBundle, freshBundle, loadEntry } from '../../bin/bundle.mjs';

/**
 * `bin/bundle.mjs`: the `matchday` command runs its sources from a cached esbuild bundle. A small
 * project in a temporary directory stands in for the package: an entry, a module it imports, a
 * module it imports lazily, and `import.meta.url` kept per module.
 */
describe('the bundle bin/matchday.mjs starts from', () => {
  const root = mkdtempSync(join(tmpdir(), 'matchday-bundle-'));
  const cacheDir = join(root, 'cache');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
  writeFileSync(join(root, 'tsconfig.json'), '{}\n');
  writeFileSync(
    join(root, 'src', 'cli.ts'),
    [
      "import { word } from './word.ts';",
      'export const here: string = import.meta.url;',
      'export const said = (): string => word;',
      "export const later = async (): Promise<string> => (await import('./later.ts')).where;",
      '',
    ].join('\n'),
  );
  writeFileSync(join(root, 'src', 'word.ts'), "export const word: string = 'first';\n");
  writeFileSync(join(root, 'src', 'later.ts'), 'export const where: string = import.meta.url;\n');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('runs the entry from the bundle, each module keeping its own import.meta.url', async () => {
    const module = await loadEntry({ root, cacheDir });
    expect((module.said as () => string)()).toBe('first');
    expect(module.here).toBe(pathToFileURL(join(root, 'src', 'cli.ts')).href);
    // The lazy import is its own chunk, still loaded only when called.
    expect(await (module.later as () => Promise<string>)()).toBe(
      pathToFileURL(join(root, 'src', 'later.ts')).href,
    );
    expect(await freshBundle(cacheDir, 'src/cli.ts')).toMatch(/cli\.mjs$/);
  });

  it('uses the bundle while its sources are unchanged and rebuilds it when one changes', async () => {
    const first = await freshBundle(cacheDir, 'src/cli.ts');
    expect(first).toBeDefined();
    expect(await freshBundle(cacheDir, 'src/cli.ts')).toBe(first);
    writeFileSync(join(root, 'src', 'word.ts'), "export const word: string = 'second';\n");
    // A different modification time even on a coarse file system clock.
    utimesSync(join(root, 'src', 'word.ts'), new Date(), new Date(Date.now() + 5000));
    expect(await freshBundle(cacheDir, 'src/cli.ts')).toBeUndefined();
    const module = await loadEntry({ root, cacheDir });
    expect((module.said as () => string)()).toBe('second');
    expect(await freshBundle(cacheDir, 'src/cli.ts')).not.toBe(first);
  });

  it('gives nothing when the bundle cannot be built, so the sources run through tsx', async () => {
    writeFileSync(join(root, 'src', 'broken.ts'), 'export const = ;\n');
    expect(await buildBundle(root, 'src/broken.ts', cacheDir)).toBeUndefined();
    expect(await freshBundle(cacheDir, 'src/broken.ts')).toBeUndefined();
  });
});
