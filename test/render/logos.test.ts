/**
 * Team logos in the standings pictures : fetched from a real `node:http` server on
 * port 0, drawn beside the team's name (checked by the pixels where the logo goes), and every way of
 * not having one (no image, a stand-in, a failed, oversized, undecodable or too slow fetch) leaves
 * the picture drawn as without logos. Logos are fetched once per URL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearLogoCache, fetchLogos, LOGO_LIMITS, logoFetches, logoUrlOf } from '../../src/render/logos.ts';
import {
  type BracketImage,
  bracketPng,
  type TableImage,
  tablePng,
} from '../../src/render/standings-image.ts';

/** A solid red square PNG: easy to find in a picture. */
function redPng(size = 32): Buffer {
  const canvas = createCanvas(size, size);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ff0000';
  ctx.fillRect(0, 0, size, size);
  return canvas.toBuffer('image/png');
}

let server: Server;
let base: string;

beforeAll(async () => {
  const red = redPng();
  server = createServer((req, res) => {
    if (req.url === '/red.png') res.writeHead(200, { 'Content-Type': 'image/png' }).end(red);
    else if (req.url === '/broken.png') res.writeHead(500).end('no');
    else if (req.url === '/text.png') res.writeHead(200).end('not a picture');
    else if (req.url === '/huge.png') {
      // No Content-Length: the limit is found while reading.
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end(Buffer.concat([red, Buffer.alloc(LOGO_LIMITS.maxBytes + 1)]));
    } else if (req.url === '/slow.png') setTimeout(() => res.end(red), LOGO_LIMITS.timeoutMs + 1000);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => clearLogoCache());

/** The colour at (x, y) of a PNG. */
async function pixel(png: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const image = await loadImage(png);
  const ctx = createCanvas(image.width, image.height).getContext('2d');
  ctx.drawImage(image, 0, 0);
  const [r, g, b] = ctx.getImageData(x, y, 1, 1).data;
  return [r!, g!, b!];
}

const isRed = ([r, g, b]: [number, number, number]) => r > 200 && g < 60 && b < 60;

const TABLE: TableImage = {
  title: 'Group A',
  columns: [{ header: '#', align: 'right' }, { header: 'Team' }, { header: 'Pts', align: 'right' }],
  rows: [
    ['1', 'Iron Pilots', '9'],
    ['2', 'Cobalt Herons', '6'],
  ],
};

const bracket = (logo?: string): BracketImage => ({
  title: 'Playoffs',
  rounds: [
    {
      part: 'UB',
      label: 'Upper bracket · round 1',
      series: [{ a: { team: 'Iron Pilots', ...(logo ? { logo } : {}) }, b: { team: 'Jade Jackals' } }],
    },
    { part: 'GF', label: 'Grand final', series: [{ a: {}, b: {} }] },
  ],
});

describe('team logos', () => {
  it("takes a team's first image that is not a stand-in, else its stand-in, its thumbnail first, http(s) only", () => {
    const image = (url: string, fallback = false) => ({ id: 1, url, thumbnail: url, fallback });
    expect(logoUrlOf({ images: [image('https://x.test/a.png')] })).toBe('https://x.test/a.png');
    expect(
      logoUrlOf({
        images: [{ id: 1, url: 'https://x.test/a.png', thumbnail: 'https://x.test/t.png', fallback: false }],
      }),
    ).toBe('https://x.test/t.png');
    // A team without a logo: the data's stand-in, so it is not drawn bare beside logos.
    expect(logoUrlOf({ images: [image('https://x.test/a.png', true)] })).toBe('https://x.test/a.png');
    // A logo goes before a stand-in, whatever their order.
    expect(logoUrlOf({ images: [image('https://x.test/s.png', true), image('https://x.test/l.png')] })).toBe(
      'https://x.test/l.png',
    );
    expect(logoUrlOf({ images: [image('file:///etc/passwd', true)] })).toBeUndefined();
    expect(logoUrlOf({ images: [image('file:///etc/passwd')] })).toBeUndefined();
    expect(logoUrlOf({ images: [image('not a url')] })).toBeUndefined();
    expect(logoUrlOf({ images: [] })).toBeUndefined();
    expect(logoUrlOf(undefined)).toBeUndefined();
  });

  it('fetches a logo once and draws it beside the name in the bracket and the table', async () => {
    const url = `${base}/red.png`;
    const logos = await fetchLogos([url, url]);
    expect(logos.size).toBe(1);
    await fetchLogos([url]);
    expect(logoFetches()).toBe(1);
    // The slot's logo: 16 px at 8 px into the box (x 16 + 8), on the first slot's middle line.
    const png = bracketPng(bracket(url), logos);
    expect(isRed(await pixel(png, 16 + 8 + 8, 88))).toBe(true);
    expect(isRed(await pixel(bracketPng(bracket()), 16 + 8 + 8, 88))).toBe(false);
    const table = tablePng({ ...TABLE, logos: { column: 1, rows: [url, undefined] } }, logos);
    // First column "#", then the team's: the logo 8 px into it, in the first row (y 46 + 28).
    const teamX = 16 + (await teamColumnX());
    expect(isRed(await pixel(table, teamX + 8 + 9, 46 + 28 + 14))).toBe(true);
    expect(isRed(await pixel(table, teamX + 8 + 9, 46 + 2 * 28 + 14))).toBe(false);
  });

  it('draws the picture as without logos when a logo fails, is too big, is no picture or is too slow', async () => {
    const urls = ['broken', 'text', 'huge', 'slow', 'missing'].map((name) => `${base}/${name}.png`);
    urls.push('http://127.0.0.1:1/refused.png');
    const started = performance.now();
    const logos = await fetchLogos(urls);
    expect(logos.size).toBe(0);
    expect(performance.now() - started).toBeLessThan(LOGO_LIMITS.timeoutMs + 900);
    const plain = bracketPng(bracket());
    for (const url of urls) expect(bracketPng(bracket(url), logos).equals(plain)).toBe(true);
    const table = tablePng({ ...TABLE, logos: { column: 1, rows: urls.slice(0, 2) } }, logos);
    expect(table.equals(tablePng(TABLE))).toBe(true);
    // A failure is remembered: asking again fetches nothing.
    const before = logoFetches();
    await fetchLogos(urls);
    expect(logoFetches()).toBe(before);
  });
});

/** Where the "Team" column starts inside the table: the "#" column's width (its text + 20). */
async function teamColumnX(): Promise<number> {
  const ctx = createCanvas(1, 1).getContext('2d');
  // The same font the renderer measures "#" and the ranks in (registered by the renderer).
  tablePng(TABLE);
  ctx.font = '14px "Matchday Sans"';
  return Math.min(260, Math.max(ctx.measureText('#').width, ctx.measureText('1').width) + 20);
}
