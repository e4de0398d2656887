/**
 * The import graph of the repository's own code, and the checks that keep it a house a newcomer can
 * walk through (test/architecture/imports.test.ts): no files that import each other in a circle, no
 * import from a room on a lower floor (a folder of src/, or a file at its top) to one on a higher
 * floor, and no rooms that import each other. The logic is pure, over file texts and graphs held in
 * memory, so the test also feeds it graphs that are wrong on purpose.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';

/** File -> the files of the graph it imports, paths relative to the repository, with `/`. */
export type ImportGraph = Map<string, string[]>;

/**
 * The module names that a TypeScript text imports: `import ... from`, `import type ... from`,
 * `export ... from`, a bare `import '...'`, and `import('...')` with a string literal. TypeScript's
 * own scanner reads them, so an import named in a comment or a string does not count.
 */
export function importedNames(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

/**
 * The graph over `files` (path -> text): an import of a relative name is an arrow to the file it
 * names, which must be one of `files` (else this throws, so an import that the checks cannot place
 * never goes unseen); imports of packages and of data files (`.json`, such as package.json) draw no
 * arrow.
 */
export function importGraph(files: ReadonlyMap<string, string>): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const [file, source] of files) {
    const targets = new Set<string>();
    for (const name of importedNames(source)) {
      if (!name.startsWith('.') || name.endsWith('.json')) continue;
      const target = posix.normalize(posix.join(posix.dirname(file), name));
      if (!files.has(target)) throw new Error(`${file} imports ${name}, which is no file read here`);
      targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Every `.ts` file under `folders` of `root`, path (relative to `root`, with `/`) -> text. */
export function readSources(root: string, folders: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) files.set(path, readFileSync(join(root, path), 'utf8'));
    }
  };
  for (const folder of folders) walk(folder);
  return files;
}

/**
 * The circles of the graph: each a set of files that import each other (a strongly connected
 * component of more than one file, or a file that imports itself), its files sorted.
 */
export function circles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative so a deep graph does not run out of stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const frames: { file: string; edge: number }[] = [{ file: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const targets = graph.get(frame.file) ?? [];
      if (frame.edge < targets.length) {
        const target = targets[frame.edge++]!;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          frames.push({ file: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file)!, index.get(target)!));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!));
      if (low.get(frame.file) !== index.get(frame.file)) continue;
      const component: string[] = [];
      let file: string;
      do {
        file = stack.pop()!;
        onStack.delete(file);
        component.push(file);
      } while (file !== frame.file);
      if (component.length > 1 || targets.includes(frame.file)) found.push(component.sort());
    }
  }
  return found;
}

/**
 * The rooms of the house from the ground up: each floor a list of rooms, a room a folder (`src/bot/`)
 * or a file (`src/app.ts`). A file belongs to the longest room that holds it.
 */
export type Floors = readonly (readonly string[])[];

/** The floor of `file` (0 = the ground) and its room, or undefined when no room holds it. */
export function roomOf(floors: Floors, file: string): { floor: number; room: string } | undefined {
  let best: { floor: number; room: string } | undefined;
  floors.forEach((rooms, floor) => {
    for (const room of rooms) {
      const holds = room.endsWith('/') ? file.startsWith(room) : file === room;
      if (holds && (!best || room.length > best.room.length)) best = { floor, room };
    }
  });
  return best;
}

/** An import that runs from a room to a room on a higher floor. */
export interface UpwardImport {
  from: string;
  to: string;
  fromRoom: string;
  toRoom: string;
}

/**
 * The imports that run up: from a file to a file whose room stands on a higher floor. Rooms on one
 * floor stand side by side: one may import another, never both ways (`roomGraph` has no circle then).
 */
export function upwardImports(graph: ImportGraph, floors: Floors): UpwardImport[] {
  const found: UpwardImport[] = [];
  for (const [from, targets] of graph) {
    const here = roomOf(floors, from);
    for (const to of targets) {
      const there = roomOf(floors, to);
      if (here && there && there.floor > here.floor) {
        found.push({ from, to, fromRoom: here.room, toRoom: there.room });
      }
    }
  }
  return found;
}

/** The files of the graph that no room holds. */
export function homeless(graph: ImportGraph, floors: Floors): string[] {
  return [...graph.keys()].filter((file) => !roomOf(floors, file));
}

/**
 * The graph of the rooms themselves: an arrow where some file of one imports a file of another (a
 * file that no room holds stands for itself), so rooms that import each other form a circle here.
 */
export function roomGraph(graph: ImportGraph, floors: Floors): ImportGraph {
  const room = (file: string) => roomOf(floors, file)?.room ?? file;
  const rooms: ImportGraph = new Map();
  for (const [from, targets] of graph) {
    const here = room(from);
    const there = new Set(rooms.get(here));
    for (const to of targets) if (room(to) !== here) there.add(room(to));
    rooms.set(here, [...there].sort());
  }
  return rooms;
}
