/**
 * Team logos for the standings pictures, where the data has images (src/render/standings-image.ts). A
 * team's logo is its first image that is not a stand-in (`fallback: false`), else its stand-in, with
 * an http(s) URL (`logoUrlOf`); it is fetched with undici (no redirects followed, at most
 * `LOGO_LIMITS.maxBytes`, within `LOGO_LIMITS.timeoutMs`), decoded once, and kept in memory by URL.
 * Anything else (no image, a failed or slow fetch, an oversized or undecodable body) means no logo:
 * the picture is drawn without it. A failure is remembered for `failureTtlMs`, so a dead image host
 * costs one timeout per logo per ten minutes, not one per command.
 */
import type { Image as NapiImage } from '@napi-rs/canvas';
import { request } from 'undici';
import type { Team } from '../protocol/types.ts';
import { skia } from './skia.ts';

/** A decoded logo, scaled to `LOGO_SIDE` pixels a side, drawn 1:1 with `drawImage`. */
export type Logo = NapiImage;

/**
 * The side of a logo in the pictures, in pixels. A logo is scaled to it once, when fetched: Skia
 * downsampling a 64-pixel logo at each drawing made a 16-team bracket about twice as slow.
 */
export const LOGO_SIDE = 18;

export const LOGO_LIMITS = {
  /** A logo body larger than this is not read to the end (a logo is a few KB). */
  maxBytes: 256 * 1024,
  /** For the whole fetch: connecting, headers and body. */
  timeoutMs: 2000,
  /** Logos kept decoded, by URL (most recently used kept). */
  cacheSize: 500,
  /** How long a URL that gave no logo is not asked again. */
  failureTtlMs: 10 * 60_000,
} as const;

/** Fetched logos by URL: a logo, or the time a fetch gave none. */
const cache = new Map<string, Promise<Logo | { failedAt: number }>>();
let fetches = 0;

/** Logo fetches made since the last `clearLogoCache` (tests). */
export function logoFetches(): number {
  return fetches;
}

export function clearLogoCache(): void {
  cache.clear();
  fetches = 0;
}

/**
 * The URL of a team's logo, or undefined: of its first image that is not a stand-in, else of the
 * stand-in the data gives a team without a logo (`fallback: true`: a plain silhouette, so such a
 * team is not drawn bare beside its neighbours' logos, as about one team in ten was), the thumbnail
 * (drawn at 16-18 pixels, it is plenty) else the picture, if http(s).
 */
export function logoUrlOf(team: Pick<Team, 'images'> | undefined): string | undefined {
  const images = team?.images ?? [];
  for (const image of [...images.filter((i) => !i.fallback), ...images.filter((i) => i.fallback)]) {
    for (const candidate of [image.thumbnail, image.url]) {
      const url = candidate ? URL.parse(candidate) : null;
      if (url && (url.protocol === 'http:' || url.protocol === 'https:')) return url.href;
    }
  }
  return undefined;
}

/** Reads a body of at most `max` bytes; undefined (and the body destroyed) past it. */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }, max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** One logo from the network, decoded; throws for anything that is not one. */
async function fetchLogo(url: string): Promise<Logo> {
  fetches++;
  const { statusCode, headers, body } = await request(url, {
    signal: AbortSignal.timeout(LOGO_LIMITS.timeoutMs),
    headers: { accept: 'image/png, image/jpeg, image/webp' },
  });
  // Destroying the body early (a bad status, too many bytes) emits an abort error: nothing to report.
  body.on('error', () => {});
  if (statusCode !== 200 || Number(headers['content-length'] ?? 0) > LOGO_LIMITS.maxBytes) {
    body.destroy();
    throw new Error(`logo ${url}: status ${statusCode}`);
  }
  const bytes = await readCapped(body, LOGO_LIMITS.maxBytes);
  if (!bytes) throw new Error(`logo ${url}: over ${LOGO_LIMITS.maxBytes} bytes`);
  // Bytes only: a string would make loadImage read a path or fetch a URL itself.
  const decoded = await skia().loadImage(bytes);
  if (decoded.width === 0 || decoded.height === 0) throw new Error(`logo ${url}: empty image`);
  return scaled(decoded);
}

/** The logo fitted into a `LOGO_SIDE` square (its proportions kept, centred), decoded again. */
function scaled(image: NapiImage): Promise<Logo> {
  const canvas = skia().createCanvas(LOGO_SIDE, LOGO_SIDE);
  const ratio = Math.min(LOGO_SIDE / image.width, LOGO_SIDE / image.height);
  const [w, h] = [image.width * ratio, image.height * ratio];
  canvas.getContext('2d').drawImage(image, (LOGO_SIDE - w) / 2, (LOGO_SIDE - h) / 2, w, h);
  return skia().loadImage(canvas.toBuffer('image/png'));
}

/** The logo at `url` from the cache, else fetched (once, however many pictures ask at a time). */
function logoAt(url: string, now: number): Promise<Logo | { failedAt: number }> {
  const held = cache.get(url);
  if (held) {
    cache.delete(url);
    cache.set(url, held);
    return held.then((got) =>
      'failedAt' in got && now - got.failedAt > LOGO_LIMITS.failureTtlMs ? refetch(url, now) : got,
    );
  }
  return refetch(url, now);
}

function refetch(url: string, now: number): Promise<Logo | { failedAt: number }> {
  const pending = fetchLogo(url).catch(() => ({ failedAt: now }));
  cache.set(url, pending);
  if (cache.size > LOGO_LIMITS.cacheSize) cache.delete(cache.keys().next().value!);
  return pending;
}

/** The logos at these URLs that could be had, by URL (fetched at the same time). */
export async function fetchLogos(urls: Iterable<string>, now = Date.now()): Promise<Map<string, Logo>> {
  const unique = [...new Set(urls)];
  const got = await Promise.all(unique.map((url) => logoAt(url, now)));
  const logos = new Map<string, Logo>();
  unique.forEach((url, i) => {
    const logo = got[i]!;
    if (!('failedAt' in logo)) logos.set(url, logo);
  });
  return logos;
}
