/**
 * Standings as pictures (docs/commands.md, "Standings pictures"): a group table and a double-elimination
 * bracket (upper and lower bracket rounds, the grand final, TBD slots, the champion), drawn server-side
 * with @napi-rs/canvas in the DejaVu Sans font that ships in `./fonts` (the same pixels on every machine,
 * no system font needed). The inputs are what may be shown: the caller (`commands/standings.ts`) leaves
 * hidden results out under the spoiler policy, so nothing hidden can be drawn. PNGs are cached by the
 * state they show (a hash of the input): the same standings are drawn once.
 */
import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import { LOGO_SIDE, type Logo } from './logos.ts';
import { font, skia } from './skia.ts';

export interface TableImage {
  title: string;
  columns: { header: string; align?: 'left' | 'right' }[];
  rows: string[][];
  /** Logos drawn left of the text in `column`: a URL per row (`logos.ts`), none where undefined. */
  logos?: { column: number; rows: (string | undefined)[] };
  /** A line under the table, e.g. why results are not shown. */
  note?: string;
  /**
   * The advance line: the first `cut` rows go through (tinted green, a rule under them), the rest
   * are out (tinted red).
   */
  cut?: number;
}

/** One side of a bracket series: a team, `TBD` (not known yet) or `hidden` (known, but a result). */
export interface BracketSlot {
  team?: string;
  /** Not drawn unless given: absent under a spoiler policy. */
  score?: number;
  winner?: boolean;
  /** The team is a result the spoiler policy hides (who advanced): drawn as "?". */
  hidden?: boolean;
  /** The URL of the team's logo (`logos.ts`): drawn left of its name when it could be had. */
  logo?: string;
}

/** A bracket series: its two slots, and above its box when it is played (unplayed) or a LIVE mark. */
export interface BracketSeries {
  a: BracketSlot;
  b: BracketSlot;
  /** When an unplayed series starts, as the reader writes it ("Sat 28 Nov, 05:38"). */
  when?: string;
  /** The series is being played: the mark's word in the reader's language ("LIVE"). */
  live?: string;
}

export interface BracketImage {
  title: string;
  /** In order: UB rounds, LB rounds, then the grand final. */
  rounds: { part: 'UB' | 'LB' | 'GF'; label: string; series: BracketSeries[] }[];
  /** The winner of the grand final, when it is over and may be shown. */
  champion?: string;
  note?: string;
  /** The picture's own words in the reader's language (default English): an unknown team, the champion's label. */
  words?: { tbd: string; champion: string };
}

const COLOURS = {
  background: '#1e1f24',
  panel: '#2b2d35',
  line: '#3d404b',
  text: '#e8e9ee',
  muted: '#9a9db0',
  winner: '#22c55e',
  advancing: '#1f3a2b',
  eliminated: '#3a2226',
  loser: '#ef4444',
  accent: '#5865f2',
  gold: '#f5b82e',
} as const;

const createCanvas = (width: number, height: number): Canvas => skia().createCanvas(width, height);

let measuring: SKRSContext2D | undefined;
/** One context kept for measuring text before a picture's size is known (not one per picture). */
const measurer = (): SKRSContext2D => {
  measuring ??= createCanvas(1, 1).getContext('2d');
  return measuring;
};

/** Cuts text to a width with an ellipsis. */
function fitText(ctx: SKRSContext2D, text: string, width: number): string {
  if (ctx.measureText(text).width <= width) return text;
  let cut = text;
  while (cut.length > 1 && ctx.measureText(`${cut}…`).width > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

// ---- PNG ---------------------------------------------------------------------------------------

/**
 * The canvas as a PNG, deflated at a fast level: Skia's own encoder (`toBuffer('image/png')`)
 * compresses hard and took 75-100 ms of a bracket's drawing on a loaded 2-core machine; a plain
 * deflate at level 2 of unfiltered rows takes about a third of that, for files somewhat larger
 * (tens of KB). The canvas is
 * opaque (every picture fills its background first), so its pixels are plain RGBA.
 */
function encodePng(canvas: Canvas): Buffer {
  const { width, height } = canvas;
  const rgba = canvas.data();
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height);
  // Filter 0 on every row (each row a copy): the flat background compresses by itself.
  for (let y = 0; y < height; y++) rgba.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 2 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---- cache -------------------------------------------------------------------------------------

const CACHE_SIZE = 200;
const cache = new Map<string, Buffer>();
let stats = { rendered: 0, cached: 0 };

/** How many images were drawn and how many came from the cache (tests, the bench). */
export function imageStats(): { rendered: number; cached: number } {
  return { ...stats };
}

export function clearImageCache(): void {
  cache.clear();
  stats = { rendered: 0, cached: 0 };
}

function cached(kind: string, input: unknown, draw: () => Buffer): Buffer {
  const key = createHash('sha256').update(kind).update(JSON.stringify(input)).digest('hex');
  const hit = cache.get(key);
  if (hit) {
    stats.cached++;
    // Most recently used last: the oldest entry is the first one dropped.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const png = draw();
  stats.rendered++;
  cache.set(key, png);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return png;
}

// ---- what every picture has ----------------------------------------------------------------------

/** The margin round every picture. */
const PAD = 16;

/** A canvas of this size filled with the background, its title drawn at the top left. */
function startPicture(width: number, height: number, title: string): { canvas: Canvas; ctx: SKRSContext2D } {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = COLOURS.background;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = COLOURS.text;
  ctx.font = font(16, true);
  ctx.textBaseline = 'middle';
  ctx.fillText(fitText(ctx, title, width - 2 * PAD), PAD, PAD + 12);
  return { canvas, ctx };
}

/** A muted line under a picture (e.g. why results are not shown), its middle at `y`. */
function drawNote(ctx: SKRSContext2D, note: string, y: number, width: number): void {
  ctx.textAlign = 'left';
  ctx.font = font(13);
  ctx.fillStyle = COLOURS.muted;
  ctx.fillText(fitText(ctx, note, width - 2 * PAD), PAD, y);
}

// ---- the group table -----------------------------------------------------------------------------

const ROW = 28;

/** The room a logo takes left of a table cell's text. */
const TABLE_LOGO_ROOM = LOGO_SIDE + 6;

/**
 * A group table as a PNG: a header row, zebra rows, numbers right-aligned, a team's logo left of
 * its name where `logos` has it (the picture is cached by the logos it shows, by URL).
 */
export function tablePng(input: TableImage, logos: ReadonlyMap<string, Logo> = new Map()): Buffer {
  const drawn = tableWithLogos(input, logos);
  return cached('table', drawn, () => drawTable(drawn, logos));
}

/** The table with only the logos that can be drawn (none: no `logos` at all). */
function tableWithLogos(input: TableImage, logos: ReadonlyMap<string, Logo>): TableImage {
  if (!input.logos) return input;
  const { logos: wanted, ...plain } = input;
  const rows = wanted.rows.map((url) => (url && logos.has(url) ? url : undefined));
  return rows.some(Boolean) ? { ...plain, logos: { column: wanted.column, rows } } : plain;
}

function drawTable(input: TableImage, logos: ReadonlyMap<string, Logo>): Buffer {
  const logoColumn = input.logos?.column;
  const measure = measurer();
  measure.font = font(14);
  const widths = input.columns.map(
    (c, i) =>
      Math.min(
        260,
        Math.max(
          measure.measureText(c.header).width,
          ...input.rows.map((r) => measure.measureText(r[i] ?? '').width),
        ) + 20,
      ) + (i === logoColumn ? TABLE_LOGO_ROOM : 0),
  );
  const tableWidth = widths.reduce((a, b) => a + b, 0);
  measure.font = font(16, true);
  const titleWidth = Math.min(900, measure.measureText(input.title).width);
  const width = Math.ceil(Math.max(360, tableWidth, titleWidth) + 2 * PAD);
  const height = PAD + 30 + ROW * (input.rows.length + 1) + (input.note ? 28 : 0) + PAD;
  const { canvas, ctx } = startPicture(width, height, input.title);
  let y = PAD + 30;
  const cell = (text: string, i: number, x: number, colour: string, bold = false) => {
    ctx.font = font(14, bold);
    ctx.fillStyle = colour;
    const room = i === logoColumn ? TABLE_LOGO_ROOM : 0;
    const shown = fitText(ctx, text, widths[i]! - 12 - room);
    ctx.textAlign = input.columns[i]!.align === 'right' ? 'right' : 'left';
    ctx.fillText(shown, input.columns[i]!.align === 'right' ? x + widths[i]! - 8 : x + 8 + room, y + ROW / 2);
  };
  ctx.fillStyle = COLOURS.accent;
  ctx.fillRect(PAD, y, tableWidth, ROW);
  let x = PAD;
  input.columns.forEach((c, i) => {
    cell(c.header, i, x, '#ffffff', true);
    x += widths[i]!;
  });
  y += ROW;
  const cut = input.cut;
  input.rows.forEach((row, r) => {
    ctx.fillStyle =
      cut === undefined
        ? r % 2 === 0
          ? COLOURS.panel
          : COLOURS.background
        : r < cut
          ? COLOURS.advancing
          : COLOURS.eliminated;
    ctx.fillRect(PAD, y, tableWidth, ROW);
    if (cut !== undefined) {
      ctx.fillStyle = r < cut ? COLOURS.winner : COLOURS.loser;
      ctx.fillRect(PAD, y + 1, 3, ROW - 2);
      if (r === cut) {
        ctx.fillStyle = COLOURS.text;
        ctx.fillRect(PAD, y - 1, tableWidth, 2);
      }
    }
    let cx = PAD;
    row.forEach((text, i) => {
      const logo = i === logoColumn ? logos.get(input.logos?.rows[r] ?? '') : undefined;
      if (logo) ctx.drawImage(logo, cx + 8, y + (ROW - LOGO_SIDE) / 2);
      cell(text, i, cx, COLOURS.text);
      cx += widths[i]!;
    });
    y += ROW;
  });
  if (input.note) drawNote(ctx, input.note, y + 16, width);
  return encodePng(canvas);
}

// ---- the bracket ---------------------------------------------------------------------------------

const BOX_W = 190;
const SLOT_H = 22;
const BOX_H = 2 * SLOT_H;
const COL_GAP = 36;
const ROW_GAP = 14;
const HEADING = 24;

/** A bracket's rounds by part, in their order. */
type BracketRound = BracketImage['rounds'][number];

/** Where a bracket's parts go: the picture's size, each bracket's section, the grand final's place. */
interface BracketLayout {
  width: number;
  height: number;
  ubTop: number;
  ubHeight: number;
  lbTop: number;
  lbHeight: number;
  /** The column of the grand final (right of both brackets) and its vertical middle. */
  finalCol: number;
  finalMid: number;
}

/** What drawing a bracket's series needs besides the canvas: the logos, and the room left for them. */
interface SlotArt {
  logos: ReadonlyMap<string, Logo>;
  /** Room before every name (0 when the picture has no logo, so names line up either way). */
  indent: number;
  /** An unknown team, in the reader's language. */
  tbd: string;
}

/** The room a logo takes before a bracket slot's name. */
const SLOT_LOGO_ROOM = LOGO_SIDE + 4;

/**
 * A double-elimination bracket as a PNG: the upper bracket's rounds left to right, the lower
 * bracket's under them, the grand final to the right, and the champion beside it once known. A
 * team's logo is drawn left of its name where `logos` has its URL (cached by the logos shown).
 */
export function bracketPng(input: BracketImage, logos: ReadonlyMap<string, Logo> = new Map()): Buffer {
  const drawn = bracketWithLogos(input, logos);
  const hasLogo = drawn.rounds.some((r) => r.series.some((s) => s.a.logo || s.b.logo));
  const art: SlotArt = { logos, indent: hasLogo ? SLOT_LOGO_ROOM : 0, tbd: drawn.words?.tbd ?? 'TBD' };
  return cached('bracket', drawn, () => {
    const ub = drawn.rounds.filter((r) => r.part === 'UB');
    const lb = drawn.rounds.filter((r) => r.part === 'LB');
    const gf = drawn.rounds.filter((r) => r.part === 'GF');
    const layout = bracketLayout(drawn, ub, lb, gf);
    const { canvas, ctx } = startPicture(layout.width, layout.height, drawn.title);
    const ubLast = drawSection(ctx, ub, layout.ubTop, layout.ubHeight, art);
    const lbLast = lb.length > 0 ? drawSection(ctx, lb, layout.lbTop, layout.lbHeight, art) : undefined;
    drawGrandFinal(ctx, gf, layout, art);
    // The upper- and lower-bracket finals feed the grand final.
    if (gf.length > 0) {
      if (ubLast?.length === 1) drawFeed(ctx, colX(ub.length - 1) + BOX_W, ubLast[0]!, layout);
      if (lbLast?.length === 1) drawFeed(ctx, colX(lb.length - 1) + BOX_W, lbLast[0]!, layout);
    }
    if (drawn.champion)
      drawChampion(
        ctx,
        drawn.champion,
        drawn.words?.champion ?? 'CHAMPION',
        colX(layout.finalCol + gf.length),
        layout.finalMid,
      );
    if (drawn.note) drawNote(ctx, drawn.note, canvas.height - PAD - 8, layout.width);
    return encodePng(canvas);
  });
}

/** The bracket with only the logos that can be drawn: a slot's `logo` kept when `logos` has it. */
function bracketWithLogos(input: BracketImage, logos: ReadonlyMap<string, Logo>): BracketImage {
  const slot = (s: BracketSlot): BracketSlot => {
    if (s.logo === undefined || logos.has(s.logo)) return s;
    const { logo: _, ...plain } = s;
    return plain;
  };
  return {
    ...input,
    rounds: input.rounds.map((r) => ({
      ...r,
      series: r.series.map((s) => ({ ...s, a: slot(s.a), b: slot(s.b) })),
    })),
  };
}

function bracketLayout(
  input: BracketImage,
  ub: readonly BracketRound[],
  lb: readonly BracketRound[],
  gf: readonly BracketRound[],
): BracketLayout {
  const rows = (rounds: readonly BracketRound[]) => Math.max(0, ...rounds.map((r) => r.series.length));
  const sectionHeight = (rounds: readonly BracketRound[]) =>
    rounds.length === 0 ? 0 : HEADING + rows(rounds) * (BOX_H + ROW_GAP);
  const columns = Math.max(ub.length, lb.length) + gf.length + (input.champion ? 1 : 0);
  const width = Math.max(420, PAD * 2 + columns * (BOX_W + COL_GAP) - COL_GAP);
  const top = PAD + 34;
  const ubHeight = sectionHeight(ub);
  const lbHeight = sectionHeight(lb);
  const height = top + ubHeight + (lb.length > 0 ? lbHeight + 12 : 0) + 12 + (input.note ? 24 : 0) + PAD;
  const lbTop = top + ubHeight + 12;
  return {
    width,
    height: Math.max(height, top + HEADING + BOX_H + 2 * PAD),
    ubTop: top,
    ubHeight,
    lbTop,
    lbHeight,
    finalCol: Math.max(ub.length, lb.length),
    // The grand final sits right of both brackets, between them vertically.
    finalMid: lb.length > 0 ? (top + lbTop + lbHeight) / 2 : top + ubHeight / 2,
  };
}

/** The left edge of a bracket column. */
const colX = (col: number) => PAD + col * (BOX_W + COL_GAP);

/** A line from a bracket's final (its right edge at `x0`, middle `y`) to the grand final's box. */
function drawFeed(ctx: SKRSContext2D, x0: number, y: number, layout: BracketLayout): void {
  const x1 = colX(layout.finalCol);
  const xm = x1 - COL_GAP / 2;
  ctx.strokeStyle = COLOURS.line;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(x0, y);
  ctx.lineTo(xm, y);
  ctx.lineTo(xm, layout.finalMid);
  ctx.lineTo(x1, layout.finalMid);
  ctx.stroke();
}

/**
 * Draws one bracket's rounds from the left edge, each under its label, series spread over the
 * height; returns the last round's series middles (where its lines to the grand final start).
 */
function drawSection(
  ctx: SKRSContext2D,
  rounds: readonly BracketRound[],
  y0: number,
  height: number,
  art: SlotArt,
): number[] {
  let previous: number[] | undefined;
  rounds.forEach((round, c) => {
    const x = colX(c);
    ctx.font = font(12, true);
    ctx.fillStyle = COLOURS.muted;
    ctx.textAlign = 'left';
    ctx.fillText(fitText(ctx, round.label, BOX_W), x, y0 + 10);
    const step = (height - HEADING) / Math.max(1, round.series.length);
    const centres = round.series.map((s, i) => {
      const cy = y0 + HEADING + step * (i + 0.5);
      drawSeries(ctx, x, cy - BOX_H / 2, s, art);
      return cy;
    });
    if (previous) drawConnectors(ctx, previous, centres, c);
    previous = centres;
  });
  return previous ?? [];
}

/**
 * Lines from one round's series to the next round's (in column `col`): where the round halves, two
 * series feed one; where it does not (a lower bracket's drop-in round, whose other side comes down
 * from the upper bracket), each series feeds the one beside it.
 */
function drawConnectors(
  ctx: SKRSContext2D,
  from: readonly number[],
  to: readonly number[],
  col: number,
): void {
  const halves = from.length === 2 * to.length;
  if (!halves && from.length !== to.length) return;
  ctx.strokeStyle = COLOURS.line;
  ctx.lineWidth = 2;
  const x0 = colX(col - 1) + BOX_W;
  const xm = x0 + COL_GAP / 2;
  to.forEach((cy, i) => {
    for (const y of halves ? [from[2 * i]!, from[2 * i + 1]!] : [from[i]!]) {
      ctx.beginPath();
      ctx.moveTo(x0, y);
      ctx.lineTo(xm, y);
      ctx.lineTo(xm, cy);
      ctx.lineTo(colX(col), cy);
      ctx.stroke();
    }
  });
}

/** The grand final's rounds (one series each) right of both brackets, labelled in gold. */
function drawGrandFinal(
  ctx: SKRSContext2D,
  gf: readonly BracketRound[],
  layout: BracketLayout,
  art: SlotArt,
): void {
  const y = layout.finalMid - BOX_H / 2;
  gf.forEach((round, i) => {
    const x = colX(layout.finalCol + i);
    ctx.font = font(12, true);
    ctx.fillStyle = COLOURS.gold;
    ctx.textAlign = 'left';
    // Above the series' own line (its time or LIVE mark) when it has one.
    const marked = round.series[0]?.when !== undefined || round.series[0]?.live !== undefined;
    ctx.fillText(fitText(ctx, round.label, BOX_W), x, y - (marked ? 24 : 14));
    for (const s of round.series.slice(0, 1)) drawSeries(ctx, x, y, s, art);
  });
}

/** The champion's gold box, centred on `mid`. */
function drawChampion(ctx: SKRSContext2D, champion: string, label: string, x: number, mid: number): void {
  ctx.fillStyle = COLOURS.gold;
  roundRect(ctx, x, mid - BOX_H / 2, BOX_W, BOX_H);
  ctx.fill();
  ctx.fillStyle = '#1e1f24';
  ctx.font = font(11, true);
  ctx.textAlign = 'left';
  ctx.fillText(label, x + 10, mid - 10);
  ctx.font = font(14, true);
  ctx.fillText(fitText(ctx, champion, BOX_W - 20), x + 10, mid + 9);
}

function roundRect(ctx: SKRSContext2D, x: number, y: number, w: number, h: number): void {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, 6);
}

function drawSeries(ctx: SKRSContext2D, x: number, y: number, s: BracketSeries, art: SlotArt): void {
  // Above the box, right-aligned: the LIVE mark, or when an unplayed series starts.
  if (s.live || s.when) {
    ctx.font = font(10, Boolean(s.live));
    ctx.fillStyle = s.live ? COLOURS.loser : COLOURS.muted;
    ctx.textAlign = 'right';
    ctx.fillText(fitText(ctx, s.live ?? s.when ?? '', BOX_W - 8), x + BOX_W - 4, y - 6);
  }
  ctx.fillStyle = COLOURS.panel;
  roundRect(ctx, x, y, BOX_W, BOX_H);
  ctx.fill();
  ctx.strokeStyle = COLOURS.line;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(x, y + SLOT_H);
  ctx.lineTo(x + BOX_W, y + SLOT_H);
  ctx.stroke();
  [s.a, s.b].forEach((slot, i) => {
    const cy = y + SLOT_H * i + SLOT_H / 2;
    if (slot.winner) {
      ctx.fillStyle = COLOURS.winner;
      ctx.fillRect(x, y + SLOT_H * i + 3, 3, SLOT_H - 6);
    }
    const known = slot.team !== undefined && !slot.hidden;
    const logo = slot.logo !== undefined && known ? art.logos.get(slot.logo) : undefined;
    if (logo) ctx.drawImage(logo, x + 7, cy - LOGO_SIDE / 2);
    ctx.font = font(13, slot.winner === true);
    ctx.fillStyle = known ? COLOURS.text : COLOURS.muted;
    ctx.textAlign = 'left';
    const name = slot.hidden ? '?' : (slot.team ?? art.tbd);
    ctx.fillText(fitText(ctx, name, BOX_W - 44 - art.indent), x + 10 + art.indent, cy);
    if (slot.score !== undefined) {
      ctx.textAlign = 'right';
      ctx.font = font(13, true);
      ctx.fillStyle = slot.winner ? COLOURS.winner : COLOURS.text;
      ctx.fillText(String(slot.score), x + BOX_W - 10, cy);
    }
  });
}
