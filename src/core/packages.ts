/**
 * The CommonJS packages every start-up needs (zod, pino, sqlite3), loaded with `require`.
 * bin/matchday.mjs runs the sources through tsx, whose loader thread handles every ES `import`: a
 * package imported that way costs a round trip per file plus a scan of its CommonJS exports (zod's
 * ES build alone is 95 files), some 0.3 s of CPU on each `matchday ask`. `require` loads them
 * through Node's own loader in one step. The same objects in every way: import them from here, and
 * their types from the package with `import type`.
 */
import { createRequire } from 'node:module';
import type * as Pino from 'pino';
import type * as Sqlite3 from 'sqlite3';
import type * as Zod from 'zod';

const require = createRequire(import.meta.url);

export const z: typeof Zod.z = require('zod').z;
export const pino: typeof Pino.pino = require('pino').pino;
export const sqlite3: typeof Sqlite3 = require('sqlite3');
