import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { build, ensureBuilt, isFresh } from '../../scripts/build.mjs';

/**
 * `scripts/build.mjs` (`npm run build`): the sources bundled into `dist/`, which bin/matchday.mjs
 * runs. A small project in a temporary directory stands in for the package: an entry, a module it
 * imports, a module it imports lazily that reads a file beside itself, and that file as an asset.
 */
describe('the build in dist/', () => {
  const root = mkdtempSync(join(tmpdir(), 'matchday-build-'));
  const dist = join(root, 'dist');
  const options = { root, entries: ['src/cli.ts'], assets: [{ from: 'src/assets', to: 'assets' }] };
  mkdirSync(join(root, 'src', 'assets'), { recursive: true });
  writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
  writeFileSync(join(root, 'tsconfig.json'), '{}\n');
  writeFileSync(
    join(root, 'src', 'cli.ts'),
    [
      "import { word } from './word.ts';",
      'export const said = (): string => word;',
      "export const later = async (): Promise<string> => (await import('./later.ts')).asset();",
      '',
    ].join('\n'),
  );
  writeFileSync(join(root, 'src', 'word.ts'), "export const word: string = 'first';\n");
  writeFileSync(
    join(root, 'src', 'later.ts'),
    [
      "import { readFileSync } from 'node:fs';",
      "export const asset = (): string => readFileSync(new URL('./assets/note.txt', import.meta.url), 'utf8');",
      '',
    ].join('\n'),
  );
  writeFileSync(join(root, 'src', 'assets', 'note.txt'), 'beside the chunk');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  let loads = 0;
  /** The built entry, imported afresh each time. */
  const load = async () =>
    (await import(`${pathToFileURL(join(dist, 'cli.mjs')).href}?${++loads}`)) as {
      said(): string;
      later(): Promise<string>;
    };

  it('writes JavaScript modules side by side in dist/, a lazy import as its own chunk, the assets beside them', async () => {
    expect(isFresh(root)).toBe(false);
    const built = await build(options);
    expect(built.written).toBe(built.files);
    const names = readdirSync(dist);
    expect(names).toEqual(expect.arrayContaining(['cli.mjs', 'build.json', 'assets']));
    expect(names.filter((name) => name.startsWith('chunk-')).length).toBeGreaterThan(0);
    // The entry imports the lazy module's chunk only when called.
    expect(readFileSync(join(dist, 'cli.mjs'), 'utf8')).not.toContain('readFileSync');
    const module = await load();
    expect(module.said()).toBe('first');
    expect(await module.later()).toBe('beside the chunk');
    expect(isFresh(root)).toBe(true);
  });

  it('is rebuilt when a source changes, and nothing is written when none did', async () => {
    expect((await build(options)).written).toBe(0);
    writeFileSync(join(root, 'src', 'word.ts'), "export const word: string = 'second';\n");
    // A different modification time even on a coarse file system clock.
    utimesSync(join(root, 'src', 'word.ts'), new Date(), new Date(Date.now() + 5000));
    expect(isFresh(root)).toBe(false);
    await ensureBuilt(options);
    expect(isFresh(root)).toBe(true);
    expect((await load()).said()).toBe('second');
  });

  it('is out of date when an output is missing or an asset changed', async () => {
    rmSync(join(dist, 'cli.mjs'));
    expect(isFresh(root)).toBe(false);
    await ensureBuilt(options);
    writeFileSync(join(root, 'src', 'assets', 'note.txt'), 'changed');
    utimesSync(join(root, 'src', 'assets', 'note.txt'), new Date(), new Date(Date.now() + 5000));
    expect(isFresh(root)).toBe(false);
    await ensureBuilt(options);
    expect(await (await load()).later()).toBe('changed');
  });

  it('throws when a source cannot be built, and the build stays out of date', async () => {
    writeFileSync(join(root, 'src', 'word.ts'), 'export const = ;\n');
    utimesSync(join(root, 'src', 'word.ts'), new Date(), new Date(Date.now() + 10_000));
    await expect(ensureBuilt(options)).rejects.toThrow();
    expect(isFresh(root)).toBe(false);
  });
});
