/**
 * @napi-rs/canvas (a native module) with the DejaVu Sans fonts of `./fonts` registered as one
 * family (`src/render/fonts`; in the build, `dist/fonts` beside the chunk this module is in, copied
 * there by scripts/build.mjs), loaded at the first picture: every command module imports the renderers, and most
 * processes (`matchday ask "/help"`) never draw. The standings pictures, the logos they decode and
 * the local service's image files all load it through here, once per process.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as NapiCanvas from '@napi-rs/canvas';

/** The font family every picture is drawn in. */
const FAMILY = 'Matchday Sans';

let loaded: typeof NapiCanvas | undefined;

export function skia(): typeof NapiCanvas {
  if (loaded) return loaded;
  const canvas = createRequire(import.meta.url)('@napi-rs/canvas') as typeof NapiCanvas;
  for (const file of ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'])
    canvas.GlobalFonts.registerFromPath(fileURLToPath(new URL(`./fonts/${file}`, import.meta.url)), FAMILY);
  loaded = canvas;
  return loaded;
}

/** A CSS font in the pictures' family. */
export const font = (size: number, bold = false): string => `${bold ? 'bold ' : ''}${size}px "${FAMILY}"`;
