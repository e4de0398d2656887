#!/usr/bin/env node
/**
 * `npm run build`: the TypeScript sources as JavaScript in `dist/`, bundled by esbuild (a
 * development dependency): `dist/cli.mjs` (`src/cli.ts`, what `bin/matchday.mjs` runs) and
 * `dist/standings-image.mjs` (`src/render/standings-image.ts`, which `scripts/container-check` draws
 * a picture with), one shared chunk per lazy import beside them, so platform libraries, the notifier
 * and the local service load only when used. Every file of `dist/` is in the folder itself (no
 * subfolder): a module's `import.meta.url` is its chunk's, and `src/render/skia.ts` finds its fonts in
 * `./fonts`, copied here to `dist/fonts/`. npm packages stay outside the bundle (`node_modules`).
 *
 * `dist/build.json` lists what the build was made from (size and modification time of each source,
 * asset, tsconfig.json, package.json and this script): `ensureBuilt()` rebuilds when one differs, so
 * `bin/matchday.mjs` in a source checkout (and the tests, `test/setup/build.ts`) never run an
 * out-of-date build. A file is written only when its content changed, each by a rename, the entries
 * last: a process starting meanwhile reads either build, never half of one. Files of older builds
 * stay a day (a running process may still load one of its lazy chunks), then go.
 *
 * Plain JavaScript on purpose: it runs before anything can load TypeScript.
 *
 *   node scripts/build.mjs    build dist/ now (npm run build)
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The modules run from `dist/`, each as `dist/<name>.mjs`. */
const ENTRIES = ['src/cli.ts', 'src/render/standings-image.ts'];
/** Files read beside a module at run time, copied into `dist/` (folder relative to `dist/`). */
const ASSETS = [{ from: 'src/render/fonts', to: 'fonts' }];
/** Inputs besides the bundled sources: a change to one rebuilds. */
const CONFIG_INPUTS = ['tsconfig.json', 'package.json', 'scripts/build.mjs'];
const MANIFEST = 'build.json';
/** Bump when the manifest's layout changes. */
const FORMAT = 1;
/** Files of older builds are removed after a day. */
const KEEP_OLD_MS = 24 * 3600_000;

/** `root`'s build folder. */
export function distDir(root = ROOT) {
  return join(root, 'dist');
}

/**
 * True when `dist/` holds a build of the current sources: every input of its manifest has the size
 * and modification time it had, and every output is there.
 */
export function isFresh(root = ROOT) {
  const dist = distDir(root);
  try {
    const manifest = JSON.parse(readFileSync(join(dist, MANIFEST), 'utf8'));
    if (manifest.format !== FORMAT) return false;
    for (const [file, [size, mtimeMs]] of Object.entries(manifest.inputs)) {
      const now = statSync(join(root, file));
      if (now.size !== size || now.mtimeMs !== mtimeMs) return false;
    }
    for (const file of manifest.outputs) statSync(join(dist, file));
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds `dist/` from the sources of `root`. Returns what was built: the number of files, of them
 * written (changed), their bytes and the milliseconds it took. Throws when esbuild fails (it prints
 * the errors) or is not installed.
 */
export async function build({ root = ROOT, entries = ENTRIES, assets = ASSETS } = {}) {
  const started = performance.now();
  const { build: esbuild } = await import('esbuild');
  const dist = distDir(root);
  const result = await esbuild({
    absWorkingDir: root,
    entryPoints: entries,
    outdir: dist,
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    metafile: true,
    write: false,
    logLevel: 'error',
  });
  mkdirSync(dist, { recursive: true });
  const entryFiles = new Set(entries.map((entry) => `${basename(entry).replace(/\.[cm]?[jt]s$/, '')}.mjs`));
  const files = [];
  for (const file of result.outputFiles) {
    const name = relative(dist, file.path);
    if (name !== basename(name)) throw new Error(`esbuild wrote ${name} in a subfolder of dist/`);
    files.push({ name, contents: file.contents });
  }
  // Chunks first, the entries that import them last.
  files.sort((a, b) => Number(entryFiles.has(a.name)) - Number(entryFiles.has(b.name)));
  const inputs = new Set([...Object.keys(result.metafile.inputs), ...CONFIG_INPUTS]);
  for (const { from, to } of assets) {
    for (const name of readdirSync(join(root, from))) {
      inputs.add(join(from, name));
      files.unshift({ name: join(to, name), contents: readFileSync(join(root, from, name)) });
    }
  }
  let written = 0;
  let bytes = 0;
  for (const { name, contents } of files) {
    bytes += contents.length;
    if (writeIfChanged(join(dist, name), contents)) written++;
  }
  const manifest = { format: FORMAT, inputs: {}, outputs: files.map((f) => f.name) };
  for (const file of [...inputs].sort()) {
    try {
      const { size, mtimeMs } = statSync(join(root, file));
      manifest.inputs[file] = [size, mtimeMs];
    } catch {
      // a configuration file this project does not have (a test's small project)
    }
  }
  writeIfChanged(join(dist, MANIFEST), Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`));
  removeOld(dist, new Set([...manifest.outputs, MANIFEST]));
  return { files: files.length, written, bytes, ms: Math.round(performance.now() - started) };
}

/**
 * Makes sure `dist/` holds a build of the current sources, building it when not. When esbuild is
 * not installed (production dependencies only) an existing build is used as it is, with a warning
 * if it is out of date; without one it throws.
 */
export async function ensureBuilt(options = {}) {
  const root = options.root ?? ROOT;
  if (isFresh(root)) return;
  try {
    await build(options);
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes("'esbuild'")) throw error;
    try {
      statSync(join(distDir(root), 'cli.mjs'));
    } catch {
      throw new Error(
        'dist/ has no build and esbuild is not installed: run `npm ci` and then `npm run build`.',
      );
    }
    process.stderr.write(
      'Warning: dist/ is older than the sources and esbuild is not installed to rebuild it (npm run build).\n',
    );
  }
}

/** Writes `contents` to `path` by a rename unless the file already holds exactly that; true if written. */
function writeIfChanged(path, contents) {
  try {
    if (readFileSync(path).equals(contents)) return false;
  } catch {
    // not there yet
  }
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
  return true;
}

/** Removes files of `dist` (and its subfolders) not in `keep` that were last written over a day ago. */
function removeOld(dist, keep, folder = dist) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      removeOld(dist, keep, path);
      continue;
    }
    if (keep.has(relative(dist, path))) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > KEEP_OLD_MS) rmSync(path, { force: true });
    } catch {
      // another build removed it
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const { files, written, bytes, ms } = await build();
    console.log(
      `dist/: ${files} files (${written} changed), ${Math.round(bytes / 1024)} kB, built in ${ms} ms`,
    );
  } catch (error) {
    if (!error?.errors) console.error(error);
    process.exitCode = 1;
  }
}
