/**
 * The import graph of src/ and commands/ stays a house a newcomer can walk through: no files that
 * import each other in a circle (type-only imports, re-exports and `import()` count), and every
 * import runs down, from a room on a higher floor to one on a lower floor or beside it. FLOORS is
 * the plan of the house: a new folder or top-level file of src/ takes its floor here. The checks
 * themselves (test/architecture/import-graph.ts) are tried on small graphs that are wrong on purpose,
 * so they cannot pass by finding nothing.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  circles,
  type Floors,
  homeless,
  importedNames,
  importGraph,
  readSources,
  roomGraph,
  upwardImports,
} from './import-graph.ts';

/** The rooms, from the ground up. A room imports rooms on lower floors, or beside it on its own. */
const FLOORS: Floors = [
  ['src/core/', 'src/i18n/'],
  ['src/protocol/', 'src/stores/'],
  ['src/config-variables.ts', 'src/config.ts'],
  ['src/client/'],
  ['src/reads/'],
  ['src/bot/'],
  ['src/feed/', 'src/render/', 'src/calendar/'],
  ['commands/', 'src/notify/', 'src/service/'],
  ['src/app.ts'],
  ['src/platforms/', 'src/ops/'],
  ['src/main.ts'],
  ['src/cli.ts'],
];

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the import graph of src/ and commands/', () => {
  const graph = importGraph(readSources(ROOT, ['src', 'commands']));

  it('is read whole: every file, with its arrows', () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('src/cli.ts')).toContain('src/main.ts'); // an import() of a literal
    expect(graph.get('commands/index.ts')?.length).toBeGreaterThan(10);
  });

  it('has no circle', () => {
    const found = circles(graph);
    expect(found, found.map((files) => `circle: ${files.join(', ')}`).join('\n')).toEqual([]);
  });

  it('places every file in a room of FLOORS', () => {
    expect(homeless(graph, FLOORS)).toEqual([]);
  });

  it('has no import that runs up a floor', () => {
    const found = upwardImports(graph, FLOORS).map(
      ({ from, to, fromRoom, toRoom }) => `${from} imports ${to} (${fromRoom} stands below ${toRoom})`,
    );
    expect(found, found.join('\n')).toEqual([]);
  });

  it('has no rooms that import each other, on one floor either', () => {
    const found = circles(roomGraph(graph, FLOORS));
    expect(found, found.map((rooms) => `rooms in a circle: ${rooms.join(', ')}`).join('\n')).toEqual([]);
  });
});

describe('the checks find what they are for', () => {
  it('read every kind of import, and none in a comment or a string', () => {
    const source = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      "import { type C, c } from './c.ts';",
      "export { d } from './d.ts';",
      "export type { E } from './e.ts';",
      "export * from './f.ts';",
      "import './g.ts';",
      "const h = await import('./h.ts');",
      "import { readFileSync } from 'node:fs';",
      "// import { x } from './comment.ts';",
      'const text = "import { y } from \'./string.ts\'";',
      'const name = "./i.ts"; await import(name);',
    ].join('\n');
    expect(importedNames(source).sort()).toEqual([
      './a.ts',
      './b.ts',
      './c.ts',
      './d.ts',
      './e.ts',
      './f.ts',
      './g.ts',
      './h.ts',
      'node:fs',
    ]);
  });

  it('find a circle, also of type-only imports and re-exports, and name its files', () => {
    const graph = importGraph(
      new Map([
        ['src/bot/a.ts', "import type { B } from './b.ts';"],
        ['src/bot/b.ts', "export { c } from '../core/c.ts';"],
        ['src/core/c.ts', "const a = () => import('../bot/a.ts');"],
        ['src/core/d.ts', "import { c } from './c.ts';"],
      ]),
    );
    expect(circles(graph)).toEqual([['src/bot/a.ts', 'src/bot/b.ts', 'src/core/c.ts']]);
    expect(circles(new Map([['src/core/self.ts', ['src/core/self.ts']]]))).toEqual([['src/core/self.ts']]);
  });

  it('find an import that runs up, and name it', () => {
    const graph = importGraph(
      new Map([
        ['src/core/clock.ts', "import type { Reply } from '../bot/reply.ts';"],
        ['src/bot/reply.ts', "import { Clock } from '../core/clock.ts';\nimport '../main.ts';"],
        ['src/main.ts', "import { Reply } from './bot/reply.ts';"],
      ]),
    );
    expect(upwardImports(graph, FLOORS)).toEqual([
      { from: 'src/core/clock.ts', to: 'src/bot/reply.ts', fromRoom: 'src/core/', toRoom: 'src/bot/' },
      { from: 'src/bot/reply.ts', to: 'src/main.ts', fromRoom: 'src/bot/', toRoom: 'src/main.ts' },
    ]);
  });

  it('find rooms that import each other without a circle of files', () => {
    const graph = importGraph(
      new Map([
        ['src/feed/a.ts', "import { b } from '../render/b.ts';"],
        ['src/render/b.ts', ''],
        ['src/render/c.ts', "import { d } from '../feed/d.ts';"],
        ['src/feed/d.ts', ''],
      ]),
    );
    expect(circles(graph)).toEqual([]);
    expect(upwardImports(graph, FLOORS)).toEqual([]);
    expect(circles(roomGraph(graph, FLOORS))).toEqual([['src/feed/', 'src/render/']]);
  });

  it('refuse an import of a file they were not given', () => {
    expect(() => importGraph(new Map([['src/bot/a.ts', "import { b } from './b.ts';"]]))).toThrow(
      'src/bot/a.ts imports ./b.ts',
    );
  });

  it('find a file that no room holds', () => {
    expect(homeless(new Map([['src/attic/box.ts', []]]), FLOORS)).toEqual(['src/attic/box.ts']);
  });
});
