/**
 * The `matchday` command's start: run `src/cli.ts` from JavaScript bundled by esbuild (tsx's own
 * compiler) instead of loading some 200 TypeScript modules one by one through tsx's loader. The
 * bundle is written once into `node_modules/.cache/matchday/` and used while every source file it
 * was built from is unchanged (same size and modification time); a changed file rebuilds it (about
 * half a second). Dynamic imports stay lazy: each becomes its own chunk. When the bundle cannot be
 * written (a read-only install, as in the container image) or built, the sources run through tsx as
 * before. `MATCHDAY_BUNDLE=0` always runs them through tsx.
 *
 * Plain JavaScript on purpose: it runs before anything can load TypeScript.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Bump when the way bundles are built changes, so older ones are not used. */
const FORMAT = 1;
/** Older builds are removed after a day: a process started before a rebuild may still load their chunks. */
const KEEP_OLD_MS = 24 * 3600_000;

/**
 * The entry module (`src/cli.ts` or a test's), from a fresh bundle when one can be had, else
 * through tsx. `root` holds `entry`; `cacheDir` keeps the bundles.
 */
export async function loadEntry({
  root = ROOT,
  entry = 'src/cli.ts',
  // One folder per checkout: checkouts that share node_modules (git worktrees) never run each other's bundle.
  cacheDir = process.env.MATCHDAY_BUNDLE_DIR ||
    join(
      root,
      'node_modules',
      '.cache',
      'matchday',
      createHash('sha256').update(root).digest('hex').slice(0, 12),
    ),
} = {}) {
  if (process.env.MATCHDAY_BUNDLE !== '0') {
    const bundled = (await freshBundle(cacheDir, entry)) ?? (await buildBundle(root, entry, cacheDir));
    if (bundled) return import(pathToFileURL(bundled).href);
  }
  const { register } = await import('tsx/esm/api');
  register();
  return import(pathToFileURL(join(root, entry)).href);
}

/** The manifest's path for an entry: which build is current and what it was built from. */
function manifestPath(cacheDir, entry) {
  return join(cacheDir, `${entry.replace(/[^a-zA-Z0-9]+/g, '-')}.json`);
}

/** The bundled entry file when the manifest's build is current (every input unchanged), else undefined. */
export async function freshBundle(cacheDir, entry) {
  try {
    const manifest = JSON.parse(readFileSync(manifestPath(cacheDir, entry), 'utf8'));
    if (manifest.format !== FORMAT || manifest.esbuild !== (await esbuildVersion())) return undefined;
    for (const [file, [size, mtimeMs]] of Object.entries(manifest.inputs)) {
      const now = statSync(file);
      if (now.size !== size || now.mtimeMs !== mtimeMs) return undefined;
    }
    return manifest.output;
  } catch {
    return undefined;
  }
}

let version;
/** esbuild's version, read from its package.json without loading esbuild. */
async function esbuildVersion() {
  if (version === undefined) {
    const { createRequire } = await import('node:module');
    const path = createRequire(import.meta.url).resolve('esbuild/package.json');
    version = JSON.parse(readFileSync(path, 'utf8')).version;
  }
  return version;
}

/**
 * Builds the bundle into a new directory of `cacheDir`, then points the manifest at it. Returns
 * the bundled entry file, or undefined when it could not be built or written.
 */
export async function buildBundle(root, entry, cacheDir) {
  try {
    const { build } = await import('esbuild');
    mkdirSync(cacheDir, { recursive: true });
    const outdir = join(cacheDir, `build-${Date.now()}-${process.pid}`);
    const result = await build({
      absWorkingDir: root,
      entryPoints: [entry],
      outdir,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      outExtension: { '.js': '.mjs' },
      metafile: true,
      logLevel: 'silent',
      plugins: [keepModuleUrls()],
    });
    const inputs = {};
    for (const file of [...Object.keys(result.metafile.inputs), 'tsconfig.json', 'package.json']) {
      const path = join(root, file);
      const { size, mtimeMs } = statSync(path);
      inputs[path] = [size, mtimeMs];
    }
    const output = join(outdir, entryOutput(entry));
    const manifest = { format: FORMAT, esbuild: await esbuildVersion(), output, inputs };
    const path = manifestPath(cacheDir, entry);
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(manifest));
    renameSync(temporary, path);
    removeOldBuilds(cacheDir, outdir);
    return output;
  } catch {
    return undefined;
  }
}

/** `src/cli.ts` -> `cli.mjs`: esbuild names a single entry's output after its file. */
function entryOutput(entry) {
  return `${entry
    .split('/')
    .pop()
    .replace(/\.[cm]?[jt]s$/, '')}.mjs`;
}

/**
 * Each module keeps its own `import.meta.url` (and `dirname`): files read beside a source (fonts,
 * package.json) are found where they are, not beside the bundle.
 */
function keepModuleUrls() {
  return {
    name: 'keep-module-urls',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
        const url = pathToFileURL(args.path).href;
        const contents = readFileSync(args.path, 'utf8')
          .replaceAll('import.meta.url', JSON.stringify(url))
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)));
        return { contents, loader: 'ts' };
      });
    },
  };
}

/** Removes builds other than `current` that are more than a day old. */
function removeOldBuilds(cacheDir, current) {
  for (const name of readdirSync(cacheDir)) {
    const path = join(cacheDir, name);
    if (!name.startsWith('build-') || path === current) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > KEEP_OLD_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // another process removed it
    }
  }
}
