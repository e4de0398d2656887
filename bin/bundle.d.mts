/** Types of `bundle.mjs` (plain JavaScript, run before TypeScript can load), for the tests. */
export interface EntryOptions {
  /** The project directory holding `entry`. Default: this package. */
  root?: string;
  /** The entry module, relative to `root`. Default `src/cli.ts`. */
  entry?: string;
  /** Where bundles are kept. Default `MATCHDAY_BUNDLE_DIR` or `<root>/node_modules/.cache/matchday`. */
  cacheDir?: string;
}
export function loadEntry(options?: EntryOptions): Promise<Record<string, unknown>>;
export function freshBundle(cacheDir: string, entry: string): Promise<string | undefined>;
export function buildBundle(root: string, entry: string, cacheDir: string): Promise<string | undefined>;
