/**
 * The local service's image files: `GET /static/images/<path>.png` (and `<path>.thumb.png`, half
 * the size) for every image the world has (`Catalog.imagesByPath`, and each tournament's), drawn
 * here with @napi-rs/canvas, so an image's URL serves real PNG bytes as a real service's image host
 * would. No secret needed (an image host is public), no rate limit; only the service's own
 * faults (drops, latency) apply, as they do to every request.
 *
 * The picture is a simple deterministic monogram: a rounded square in a colour of the path's hash
 * with the team's abbreviation (a flag's code, else the name's first letters) in white. A
 * `fallback: true` image is the plain stand-in a real service serves for a missing logo: a grey
 * square with a lighter silhouette, no letters.
 */
import type { ServerResponse } from 'node:http';
import { crc32 } from 'node:zlib';
import { font, skia } from '../render/skia.ts';
import { send } from './json-answer.ts';
import type { World } from './world.ts';

/** The route's prefix: image URLs are `<service origin>/static/images/<path>.png`. */
export const IMAGES_PATH = '/static/images';
/** Sides of the picture and of its thumbnail, in pixels. */
const SIZE = 128;
const THUMB_SIZE = 64;
/** PNGs kept drawn (a team's logo is asked for once per picture of its standings). */
const CACHE_SIZE = 2000;

const cache = new Map<string, Buffer>();

/** "teams/101.png" -> the path and whether the thumbnail is asked; undefined for any other shape. */
function readName(name: string): { path: string; thumb: boolean } | undefined {
  const m = /^([a-z]+\/[a-z0-9-]{1,40})(\.thumb)?\.png$/.exec(name);
  return m ? { path: m[1]!, thumb: m[2] !== undefined } : undefined;
}

/** Does the world have an image at `path`: a catalogue image or a tournament of the plans. */
function imageAt(world: World, path: string): { fallback: boolean } | undefined {
  const image = world.catalog.imagesByPath.get(path);
  if (image) return image;
  const tournament = /^tournaments\/(\d+)$/.exec(path);
  if (tournament && world.tournamentPlan(Number(tournament[1]))) return { fallback: false };
  return undefined;
}

/** The letters of a monogram: a team's abbreviation, a flag's code, else the name's first two letters. */
function monogram(world: World, path: string): string {
  const [kind, name = ''] = path.split('/');
  if (kind === 'teams') {
    const team = world.catalog.teamById.get(Number(name));
    if (team) return team.abbreviation.slice(0, 4).toUpperCase();
  }
  if (kind === 'tournaments') return 'T';
  return (
    name
      .replace(/[^a-z]/g, '')
      .slice(0, 2)
      .toUpperCase() || '?'
  );
}

/** The monogram (or the fallback stand-in) as a PNG of `size` pixels a side. */
function drawImageFile(letters: string, path: string, size: number, fallback: boolean): Buffer {
  const canvas = skia().createCanvas(size, size);
  const ctx = canvas.getContext('2d');
  if (fallback) {
    ctx.fillStyle = '#6b7280';
    ctx.fillRect(0, 0, size, size);
    ctx.fillStyle = '#9ca3af';
    ctx.beginPath();
    ctx.arc(size / 2, size * 0.4, size * 0.18, 0, 2 * Math.PI);
    ctx.fill();
    ctx.fillRect(size * 0.25, size * 0.64, size * 0.5, size * 0.22);
    return canvas.toBuffer('image/png');
  }
  ctx.fillStyle = `hsl(${crc32(path) % 360}, 55%, 40%)`;
  ctx.beginPath();
  ctx.roundRect(0, 0, size, size, size / 5);
  ctx.fill();
  ctx.fillStyle = '#ffffff';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  let px = Math.round(size * 0.42);
  ctx.font = font(px, true);
  while (px > 8 && ctx.measureText(letters).width > size * 0.82) ctx.font = font(--px, true);
  ctx.fillText(letters, size / 2, size / 2);
  return canvas.toBuffer('image/png');
}

/**
 * Answers `GET /static/images/<name>` (`pathname` past the service's origin): the PNG, or a 404
 * in the service's error shape.
 */
export function serveImageFile(world: World, pathname: string, res: ServerResponse): void {
  const wanted = readName(pathname.slice(IMAGES_PATH.length + 1));
  const image = wanted && imageAt(world, wanted.path);
  if (!wanted || !image) {
    send(res, 404, { msg: `No image at ${pathname.slice(0, 200)}.` });
    return;
  }
  const letters = monogram(world, wanted.path);
  const size = wanted.thumb ? THUMB_SIZE : SIZE;
  // Keyed by what is drawn: worlds of other seeds in the same process share the cache.
  const key = `${wanted.path}:${letters}:${size}:${image.fallback}`;
  let png = cache.get(key);
  if (!png) {
    png = drawImageFile(letters, wanted.path, size, image.fallback);
    cache.set(key, png);
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  res.writeHead(200, {
    'Content-Type': 'image/png',
    'Content-Length': png.length,
    'Cache-Control': 'public, max-age=86400',
  });
  res.end(png);
}
