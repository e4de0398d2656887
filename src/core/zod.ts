/**
 * zod, loaded with `require`. Its ES module build is some 95 files, and under tsx (bin/matchday.mjs
 * runs the sources through it) every imported file is one round trip to tsx's loader thread: about
 * 0.2 s of CPU on each `matchday ask`. Its CommonJS build loads in one step through Node's own
 * loader. The same `z` in every way; import it from here, and zod's types with `import type`.
 */
import { createRequire } from 'node:module';
import type * as Zod from 'zod';

export const z: typeof Zod.z = createRequire(import.meta.url)('zod').z;
