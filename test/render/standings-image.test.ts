/**
 * The standings pictures: golden PNGs compared by pixel difference under a
 * threshold (fonts ship with the repository, so the pixels are the same on every machine), the
 * cache by state, and the spoiler policy: under `spoiler` a bracket's results are not drawn (two
 * states of the world with different results give the same pixels; under `show` they differ).
 * `UPDATE_GOLDEN=1 npx vitest run test/render` rewrites the golden files after a reviewed change.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translator } from '../../src/i18n/i18n.ts';
import { clearLogoCache, fetchLogos, LOGO_SIDE, logoFetches } from '../../src/render/logos.ts';
import {
  type BracketImage,
  bracketPng,
  clearImageCache,
  imageStats,
  type TableImage,
  tablePng,
} from '../../src/render/standings-image.ts';
import { bracketImageOf, hiddenNote } from '../../src/render/standings-input.ts';

const HIDDEN_NOTE = hiddenNote(translator('en'));

import { call, type Stack, startStack, tenantWith } from '../commands/helpers.ts';

/** Share of pixels whose colour differs by more than 24 in a channel. */
async function pixelDifference(a: Buffer, b: Buffer): Promise<number> {
  const [ia, ib] = await Promise.all([loadImage(a), loadImage(b)]);
  if (ia.width !== ib.width || ia.height !== ib.height) return 1;
  const read = (img: typeof ia) => {
    const ctx = createCanvas(img.width, img.height).getContext('2d');
    ctx.drawImage(img, 0, 0);
    return ctx.getImageData(0, 0, img.width, img.height).data;
  };
  const [da, db] = [read(ia), read(ib)];
  let differing = 0;
  for (let i = 0; i < da.length; i += 4) {
    const delta = Math.max(
      Math.abs(da[i]! - db[i]!),
      Math.abs(da[i + 1]! - db[i + 1]!),
      Math.abs(da[i + 2]! - db[i + 2]!),
    );
    if (delta > 24) differing++;
  }
  return differing / (da.length / 4);
}

/** At most 0.5 % of the pixels may differ (anti-aliasing across Skia builds). */
const THRESHOLD = 0.005;

async function expectGolden(name: string, png: Buffer): Promise<void> {
  const file = new URL(`./golden/${name}.png`, import.meta.url);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    if (process.env.UPDATE_GOLDEN !== '1') throw new Error(`no golden ${name}.png: run with UPDATE_GOLDEN=1`);
    writeFileSync(file, png);
  }
  expect(await pixelDifference(png, readFileSync(file))).toBeLessThan(THRESHOLD);
}

const TABLE: TableImage = {
  title: 'AC Lisbon Masters 23-29 Nov 2026 · Group A',
  columns: [
    { header: '#', align: 'right' },
    { header: 'Team' },
    { header: 'W', align: 'right' },
    { header: 'D', align: 'right' },
    { header: 'L', align: 'right' },
    { header: 'Pts', align: 'right' },
    { header: 'Diff', align: 'right' },
  ],
  rows: [
    ['1', 'Iron Pilots', '3', '0', '0', '9', '+5'],
    ['2', 'Cobalt Herons', '2', '0', '1', '6', '+2'],
    ['3', 'Jade Jackals', '1', '0', '2', '3', '-2'],
    ['4', 'Solar Falcons', '0', '0', '3', '0', '-5'],
  ],
  // The top 2 advance: tinted green above the line, red below it.
  cut: 2,
};

const won = (team: string, score: number) => ({ team, score, winner: true });
const lost = (team: string, score: number) => ({ team, score });
const BRACKET: BracketImage = {
  title: 'AC Lisbon Masters 23-29 Nov 2026 · Playoffs',
  rounds: [
    {
      part: 'UB',
      label: 'Upper bracket · round 1',
      series: [
        { a: won('Iron Pilots', 2), b: lost('Solar Falcons', 0) },
        { a: lost('Cobalt Herons', 1), b: won('Jade Jackals', 2) },
      ],
    },
    {
      part: 'UB',
      label: 'Upper bracket · round 2',
      series: [{ a: won('Iron Pilots', 2), b: lost('Jade Jackals', 1) }],
    },
    {
      part: 'LB',
      label: 'Lower bracket · round 1',
      series: [{ a: won('Solar Falcons', 2), b: lost('Cobalt Herons', 0) }],
    },
    { part: 'LB', label: 'Lower bracket · round 2', series: [{ a: { team: 'Jade Jackals' }, b: {} }] },
    { part: 'GF', label: 'Grand final', series: [{ a: { team: 'Iron Pilots' }, b: {} }] },
  ],
};

describe('standings pictures', () => {
  it('draws a group table like the reviewed golden PNG', async () => {
    await expectGolden('group-table', tablePng(TABLE));
  });

  it('draws a bracket with UB, LB, GF and TBD slots like the reviewed golden PNG', async () => {
    await expectGolden('bracket-tbd', bracketPng(BRACKET));
  });

  it('joins the upper- and lower-bracket finals to the grand final, and every lower-bracket round to the next', async () => {
    const image = await loadImage(bracketPng(BRACKET));
    const ctx = createCanvas(image.width, image.height).getContext('2d');
    ctx.drawImage(image, 0, 0);
    /** Pixels of the connector colour (#3d404b) down the column x, from y0 to the bottom. */
    const lineAt = (x: number, y0 = 0) => {
      const { data } = ctx.getImageData(x, y0, 1, image.height - y0);
      let n = 0;
      for (let i = 0; i < data.length; i += 4)
        if (
          Math.abs(data[i]! - 0x3d) < 6 &&
          Math.abs(data[i + 1]! - 0x40) < 6 &&
          Math.abs(data[i + 2]! - 0x4b) < 6
        )
          n++;
      return n;
    };
    // Columns are 190 px boxes 36 px apart from a 16 px margin: the gaps' middles at 224 and 450.
    // Left of the grand final (column 2) the lines from both finals run down to its middle.
    expect(lineAt(450)).toBeGreaterThan(40);
    // Between lower-bracket round 1 and 2 (one series each; the lower bracket starts 202 px down,
    // under the upper bracket's two rows): a straight line across the gap.
    expect(lineAt(224, 202)).toBeGreaterThan(0);
  });

  it('draws the note of hidden results in words every platform can read, like the reviewed golden PNG', async () => {
    // No command in the picture: `/settings spoilers` is written `/matchday settings spoilers` on Slack.
    expect(HIDDEN_NOTE).not.toMatch(/\//);
    // As `bracketImageOf` gives it under `spoiler`: the teams only (no score, no winner) and the note.
    const teamsOnly = (slot: { team?: string }) => (slot.team ? { team: slot.team } : {});
    const hidden: BracketImage = {
      ...BRACKET,
      rounds: BRACKET.rounds.map((r) => ({
        ...r,
        series: r.series.map((s) => ({ a: teamsOnly(s.a), b: teamsOnly(s.b) })),
      })),
      note: HIDDEN_NOTE,
    };
    await expectGolden('bracket-hidden', bracketPng(hidden));
  });

  it('draws the champion once the grand final is over', async () => {
    const over: BracketImage = {
      ...BRACKET,
      rounds: BRACKET.rounds.map((r) =>
        r.part === 'GF' ? { ...r, series: [{ a: won('Iron Pilots', 3), b: lost('Jade Jackals', 1) }] } : r,
      ),
      champion: 'Iron Pilots',
    };
    await expectGolden('bracket-champion', bracketPng(over));
  });

  it('draws logos beside the teams like the reviewed golden PNG', async () => {
    // Two made-up logos (solid squares with a corner mark), sized as `fetchLogos` gives them.
    const logo = async (colour: string) => {
      const canvas = createCanvas(LOGO_SIDE, LOGO_SIDE);
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = colour;
      ctx.fillRect(0, 0, LOGO_SIDE, LOGO_SIDE);
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, LOGO_SIDE / 3, LOGO_SIDE / 3);
      return loadImage(canvas.toBuffer('image/png'));
    };
    const logos = new Map([
      ['https://logos.test/iron.png', await logo('#c0392b')],
      ['https://logos.test/jade.png', await logo('#16a085')],
    ]);
    const byTeam: Record<string, string> = {
      'Iron Pilots': 'https://logos.test/iron.png',
      'Jade Jackals': 'https://logos.test/jade.png',
      // No logo to be had for this one: its name is drawn alone.
      'Solar Falcons': 'https://logos.test/missing.png',
    };
    const withLogo = <T extends { team?: string }>(slot: T) =>
      slot.team && byTeam[slot.team] ? { ...slot, logo: byTeam[slot.team]! } : slot;
    const bracket: BracketImage = {
      ...BRACKET,
      rounds: BRACKET.rounds.map((r) => ({
        ...r,
        series: r.series.map((s) => ({ a: withLogo(s.a), b: withLogo(s.b) })),
      })),
    };
    await expectGolden('bracket-logos', bracketPng(bracket, logos));
    const table: TableImage = {
      ...TABLE,
      logos: { column: 1, rows: TABLE.rows.map((row) => byTeam[row[1]!]) },
    };
    await expectGolden('group-table-logos', tablePng(table, logos));
    // Logos change the picture; a logo that could not be had leaves no trace.
    expect(await pixelDifference(bracketPng(bracket, logos), bracketPng(BRACKET))).toBeGreaterThan(THRESHOLD);
    expect(bracketPng(bracket, new Map()).equals(bracketPng(BRACKET))).toBe(true);
  });

  it('tells a changed picture from the golden one (the comparison is not vacuous)', async () => {
    const changed = {
      ...TABLE,
      rows: TABLE.rows.map((r, i) => (i === 0 ? [...r.slice(0, 5), '12', '+9'] : r)),
    };
    const golden = readFileSync(new URL('./golden/group-table.png', import.meta.url));
    expect(await pixelDifference(tablePng(changed), golden)).toBeGreaterThan(0);
    expect(
      await pixelDifference(bracketPng({ ...BRACKET, champion: 'Iron Pilots' }), bracketPng(BRACKET)),
    ).toBe(1);
  });

  it('draws a state once: the same standings come from the cache', () => {
    clearImageCache();
    const first = tablePng(TABLE);
    const again = tablePng(structuredClone(TABLE));
    expect(again).toBe(first);
    expect(imageStats()).toEqual({ rendered: 1, cached: 1 });
    tablePng({ ...TABLE, title: 'Another group' });
    expect(imageStats().rendered).toBe(2);
  });
});

describe('standings pictures from the world', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  /**
   * A bracket whose first upper round is set and which has results: just after its first result, at the
   * first instant after a result when none of it is live (`settled`), and after its last result.
   */
  function bracketStates() {
    const world = stack.service.world;
    const now = world.now();
    for (const tournament of world.window(now).tournaments)
      for (const stage of tournament.stages)
        for (const sub of stage.substages) {
          if (sub.type !== 2) continue;
          const plans = world.window(now).bySubstage.get(sub.id) ?? [];
          const ends = plans.map((p) => p.end).sort((a, b) => a - b);
          if (ends.length < 4 || ends[0]! > now) continue;
          // After the first result, and after the last: the seeding is the same, the results differ.
          const early = ends[0]! + 1;
          const late = ends.at(-1)! + 1;
          // Series of a round start together: an instant after a result at which none of this bracket is
          // live, so that only results tell it from `late` (a live series is drawn LIVE under any policy).
          const quiet = (at: number) => plans.every((p) => world.lifecycle(p, at) !== 'live');
          const settled = ends
            .slice(0, -1)
            .map((end) => end + 1)
            .find(quiet);
          if (settled === undefined || !quiet(late)) continue;
          return {
            title: tournament.title,
            early: plans.map((p) => world.seriesAt(p, early)),
            settled: plans.map((p) => world.seriesAt(p, settled)),
            late: plans.map((p) => world.seriesAt(p, late)),
          };
        }
    throw new Error('the world has no bracket with results; pick another instant');
  }

  it('marks a live series LIVE and writes when each unplayed series starts, in the reader language', async () => {
    const { early } = bracketStates();
    // One instant after the first result: some series are over, one is live or none, the rest unplayed.
    const live = early.find((s) => s.lifecycle === 'live');
    const unplayed = early.filter((s) => s.lifecycle === 'upcoming' && s.start);
    expect(unplayed.length).toBeGreaterThan(0);
    await stack.names.ensureSeriesLabels(
      stack.client.forCaller({ priority: 'interactive', deadlineMs: 5000 }),
      early,
    );
    const when = (start: string) => `at ${start}`;
    const image = bracketImageOf('B', early, stack.names, 'show', translator('de'), when)!;
    const series = image.rounds.flatMap((r) => r.series);
    const whens = series.map((s) => s.when).filter(Boolean);
    expect(whens.sort()).toEqual(unplayed.map((s) => `at ${s.start}`).sort());
    expect(series.filter((s) => s.live).map((s) => s.live)).toEqual(live ? ['LIVE'] : []);
    // A finished series carries neither.
    const over = series.filter((s) => s.a.winner || s.b.winner);
    expect(over.length).toBeGreaterThan(0);
    for (const s of over) expect(s.when ?? s.live).toBeUndefined();
  });

  it('leaves hidden results out under the spoiler policy, and draws them under show', async () => {
    const { title, settled: early, late } = bracketStates();
    await stack.names.ensureSeriesLabels(stack.client, [...early, ...late]);
    const png = (series: typeof early, policy: 'show' | 'spoiler') =>
      bracketPng(bracketImageOf(title, series, stack.names, policy, translator('en'))!);
    const spoilerInput = bracketImageOf(title, late, stack.names, 'spoiler', translator('en'))!;
    // Nothing the policy hides is even given to the renderer: no score, no winner, no champion.
    for (const round of spoilerInput.rounds)
      for (const s of round.series)
        for (const slot of [s.a, s.b]) {
          expect(slot.score).toBeUndefined();
          expect(slot.winner).toBeUndefined();
        }
    expect(spoilerInput.champion).toBeUndefined();
    // A logo only where a team is drawn: a "?" slot has none (it would tell who advanced).
    const slots = spoilerInput.rounds.flatMap((r) => r.series.flatMap((s) => [s.a, s.b]));
    for (const slot of slots) if (slot.hidden || !slot.team) expect(slot.logo).toBeUndefined();
    expect(slots.some((slot) => slot.team && slot.logo)).toBe(true);
    expect(bracketImageOf(title, late, stack.names, 'show', translator('en'))!.champion).toBeDefined();
    // The pixels: different results, the same picture under spoiler; different pictures under show.
    expect(await pixelDifference(png(early, 'spoiler'), png(late, 'spoiler'))).toBe(0);
    expect(await pixelDifference(png(early, 'show'), png(late, 'show'))).toBeGreaterThan(0);
  });

  it('draws a logo beside every team the data has an image for, its stand-in where it has no logo', async () => {
    const world = stack.service.world;
    const now = world.now();
    const brackets = [...world.window(now).bySubstage.entries()]
      .filter(([, plans]) => plans.some((p) => p.bracket) && plans.every((p) => p.end < now))
      .slice(0, 12);
    expect(brackets.length).toBeGreaterThan(3);
    let known = 0;
    let standIns = 0;
    for (const [, plans] of brackets) {
      const series = plans.map((p) => world.seriesAt(p, now));
      await stack.names.ensureSeriesLabels(stack.client, series);
      const image = bracketImageOf('B', series, stack.names, 'show', translator('en'))!;
      const slots = image.rounds.flatMap((r) => r.series.flatMap((s) => [s.a, s.b])).filter((s) => s.team);
      const urls = slots.map((slot) => slot.logo);
      // Every team drawn has a logo URL, and every one of them is fetched from the service's images.
      expect(urls.filter((url) => url === undefined)).toEqual([]);
      const logos = await fetchLogos(urls as string[]);
      expect(logos.size).toBe(new Set(urls).size);
      known += slots.length;
      for (const slot of slots) {
        const team = world.catalog.teams.find((t) => t.name === slot.team)!;
        if (team.images.every((i) => i.fallback)) {
          standIns++;
          expect(slot.logo).toBe(team.images[0]!.thumbnail);
        } else expect(slot.logo).toBe(team.images.find((i) => !i.fallback)!.thumbnail);
      }
    }
    expect(known).toBeGreaterThan(100);
    // About one team in ten has only the stand-in: before, each was drawn bare beside its neighbours' logos.
    expect(standIns).toBeGreaterThan(0);
    // Under the spoiler policy a "?" slot still has none (the logo would tell who advanced).
    const [, plans] = brackets[0]!;
    const hidden = bracketImageOf(
      'B',
      plans.map((p) => world.seriesAt(p, now)),
      stack.names,
      'spoiler',
      translator('en'),
    )!;
    for (const slot of hidden.rounds.flatMap((r) => r.series.flatMap((s) => [s.a, s.b])))
      expect(slot.hidden ? slot.logo : 'drawn').toBe(slot.hidden ? undefined : 'drawn');
  });

  it('attaches the picture to /standings, and none when the spoiler setting hides the table', async () => {
    const world = stack.service.world;
    const now = world.now();
    const tournament = world
      .window(now)
      .tournaments.find(
        (t) => t.start <= now && t.end >= now && t.stages.some((s) => s.substages.some((x) => x.type === 1)),
      );
    expect(tournament).toBeDefined();
    clearLogoCache();
    const shown = await call(stack, 'standings', { tournament: tournament!.title });
    expect(shown.outcome).toBe('ok');
    const image = shown.reply.cards[0]!.image;
    expect(image && 'png' in image && Buffer.from(image.png.subarray(1, 4)).toString()).toBe('PNG');
    // The teams' logos were fetched from the service's image route for the picture.
    expect(logoFetches()).toBeGreaterThan(0);
    const tenant = await tenantWith(stack, { spoilers: 'hide' });
    const hidden = await call(stack, 'standings', { tournament: tournament!.title }, { tenant });
    expect(hidden.outcome).toBe('ok');
    expect(hidden.reply.cards[0]!.image).toBeUndefined();
  });
});
