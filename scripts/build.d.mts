/** Types of `build.mjs` (plain JavaScript, run before TypeScript can load), for the tests. */
export interface BuildOptions {
  /** The project folder: sources, tsconfig.json, package.json; the build goes to its `dist/`. Default: this package. */
  root?: string;
  /** The modules built, each as `dist/<name>.mjs`. Default `src/cli.ts` and `src/render/standings-image.ts`. */
  entries?: string[];
  /** Folders copied into `dist/` (`to` relative to it). Default the fonts of `src/render/fonts`. */
  assets?: { from: string; to: string }[];
}
export interface Built {
  files: number;
  written: number;
  bytes: number;
  ms: number;
}
export function distDir(root?: string): string;
export function isFresh(root?: string): boolean;
export function build(options?: BuildOptions): Promise<Built>;
export function ensureBuilt(options?: BuildOptions): Promise<void>;
