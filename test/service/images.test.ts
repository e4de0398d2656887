/**
 * The local service's images (`src/service/image-files.ts`): every team image URL the service gives
 * names the service itself and serves a PNG, without a secret; a stand-in (`fallback: true`) is
 * the plain grey picture; a path the world has no image at is a 404, as is anything but a plain
 * image name. A world no service serves keeps the placeholder that serves nothing.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSERVED_IMAGE_BASE } from '../../src/service/catalog.ts';
import { Clock, type RunningService, startService, World } from '../../src/service/index.ts';

let service: RunningService;
let origin: string;

beforeAll(async () => {
  service = await startService({
    rate: 0,
    clock: new Clock({ start: new Date('2026-11-26T12:00:00Z'), frozen: true }),
  });
  origin = new URL(service.url).origin;
});
afterAll(async () => {
  await service?.close();
});

/** The colour at the middle of a PNG's top-left quarter (outside a monogram's letters). */
async function corner(png: Buffer): Promise<[number, number, number]> {
  const image = await loadImage(png);
  const ctx = createCanvas(image.width, image.height).getContext('2d');
  ctx.drawImage(image, 0, 0);
  const [r, g, b] = ctx.getImageData(image.width / 8, image.height / 2, 1, 1).data;
  return [r!, g!, b!];
}

describe('the service serves its images', () => {
  it('answers a PNG for every team image URL /v3/teams gives, and a grey stand-in for a fallback', async () => {
    const res = await fetch(`${service.url}/teams?take=50&secret=${service.secret}`);
    expect(res.status).toBe(200);
    const listed = (await res.json()) as { images: { url: string; thumbnail: string }[] }[];
    // The answers name the service's own image route (every team's, checked below from the catalogue).
    for (const team of listed)
      for (const image of team.images) expect(image.url.startsWith(`${origin}/static/images/`)).toBe(true);
    const teams = service.world.catalog.teams;
    let fallbacks = 0;
    for (const team of teams) {
      const image = team.images[0]!;
      for (const [url, side] of [
        [image.url, 128],
        [image.thumbnail, 64],
      ] as const) {
        expect(url.startsWith(`${origin}/static/images/teams/`), url).toBe(true);
        const answer = await fetch(url);
        expect(answer.status, url).toBe(200);
        expect(answer.headers.get('content-type')).toBe('image/png');
        const png = Buffer.from(await answer.arrayBuffer());
        const decoded = await loadImage(png);
        expect([decoded.width, decoded.height]).toEqual([side, side]);
        if (image.fallback && side === 128) {
          fallbacks++;
          expect(await corner(png)).toEqual([0x6b, 0x72, 0x80]);
        } else if (side === 128) expect(await corner(png)).not.toEqual([0x6b, 0x72, 0x80]);
      }
    }
    expect(fallbacks).toBeGreaterThan(0);
  });

  it('serves other images and tournaments the same way, and 404s what it has no image for', async () => {
    const flag = service.world.catalog.countries[0]!.images[0]!;
    expect((await fetch(flag.url)).status).toBe(200);
    const tournaments = await fetch(`${service.url}/tournaments?take=1&secret=${service.secret}`);
    const [tournament] = (await tournaments.json()) as { images: { url: string }[] }[];
    expect((await fetch(tournament!.images[0]!.url)).status).toBe(200);
    for (const path of [
      'teams/99999999.png',
      'teams/101.jpg',
      'TEAMS/101.png',
      'teams/%2e%2e.png',
      'teams/101',
      'x.png',
    ])
      expect((await fetch(`${origin}/static/images/${path}`)).status, path).toBe(404);
  });

  it('keeps the placeholder URLs (serving nothing) in a world no service serves', () => {
    const world = new World(1, 1, new Clock({ start: new Date('2026-11-26T12:00:00Z'), frozen: true }));
    expect(world.catalog.teams[0]!.images[0]!.url.startsWith(`${UNSERVED_IMAGE_BASE}/teams/`)).toBe(true);
  });
});
