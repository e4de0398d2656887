/**
 * `npm run bench:images [-- --quick]`: the time to draw the standings pictures (the
 * budget: under 150 ms per image) from the embedded world's real tournaments: each running or
 * recent tournament's first group table and its bracket, drawn with the cache emptied before each
 * (a first drawing), then asked again (a cached one), with the teams' logos the service serves
 * (fetched once before measuring, as the bot keeps them by URL; the fetch is timed apart). Prints
 * per-kind median, p95 and worst, then one JSON line.
 */

import { tableCard } from '../commands/standings.ts';
import { createNameIndex } from '../src/bot/names.ts';
import { createClient } from '../src/client/client.ts';
import { Clock } from '../src/core/clock.ts';
import { translator } from '../src/i18n/i18n.ts';
import { fetchLogos } from '../src/render/logos.ts';
import { bracketPng, clearImageCache, imageStats, tablePng } from '../src/render/standings-image.ts';
import { bracketImageOf, logoUrlsOf, tableImageOf } from '../src/render/standings-input.ts';
import { startService } from '../src/service/index.ts';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 3 : 10;
const AT = new Date('2026-11-26T20:00:00Z');

const clock = new Clock({ start: AT, frozen: true });
const service = await startService({ rate: 0, seed: 42, clock });
const client = createClient({
  baseUrl: service.url,
  secret: service.secret,
  rate: { perSecond: 10_000, burst: 10_000 },
});
const names = createNameIndex({ client, clock });
const world = service.world;
const now = world.now();

const tables: Parameters<typeof tablePng>[0][] = [];
const brackets: Parameters<typeof bracketPng>[0][] = [];
for (const tournament of world.window(now).tournaments) {
  if (tournament.start > now || tables.length >= (quick ? 6 : 24)) continue;
  for (const stage of tournament.stages)
    for (const sub of stage.substages) {
      const substage = world.substageAt(sub, now);
      if (sub.type === 1 && substage.standings.length > 0) {
        await names.ensureRosters(
          client,
          substage.standings.map((s) => s.roster.id),
        );
        const input = tableImageOf(
          tableCard(translator('en'), `${tournament.title} · ${substage.title}`, substage, names, 'show'),
          translator('en'),
          logoUrlsOf(
            names,
            substage.standings.map((s) => s.roster.id),
          ),
        );
        if (input) tables.push(input);
      }
      if (sub.type === 2) {
        const series = (world.window(now).bySubstage.get(sub.id) ?? []).map((p) => world.seriesAt(p, now));
        await names.ensureSeriesLabels(client, series);
        const input = bracketImageOf(
          `${tournament.title} · ${substage.title}`,
          series,
          names,
          'show',
          translator('en'),
        );
        if (input) brackets.push(input);
      }
    }
}

function measure<T>(inputs: T[], draw: (input: T) => Buffer) {
  const first: number[] = [];
  const cached: number[] = [];
  let bytes = 0;
  for (let round = 0; round < ROUNDS; round++)
    for (const input of inputs) {
      clearImageCache();
      let t = performance.now();
      bytes = draw(input).length;
      first.push(performance.now() - t);
      t = performance.now();
      draw(input);
      cached.push(performance.now() - t);
    }
  const stats = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q: number) =>
      Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1));
    return { median: at(0.5), p95: at(0.95), worst: at(1) };
  };
  return { images: inputs.length, drawn: first.length, first: stats(first), cached: stats(cached), bytes };
}

const logoUrls = [
  ...tables.flatMap((t) => t.logos?.rows ?? []),
  ...brackets.flatMap((b) => b.rounds.flatMap((r) => r.series.flatMap((s) => [s.a.logo, s.b.logo]))),
].filter((url) => url !== undefined);
let started = performance.now();
const logos = await fetchLogos(logoUrls);
const logoFetch = { logos: logos.size, ms: Number((performance.now() - started).toFixed(1)) };
console.log(`logos: ${logos.size} fetched from the service and decoded in ${logoFetch.ms} ms`);
// One drawing before measuring: loading the fonts and Skia's first use are start-up, not per image.
started = performance.now();
if (tables[0]) tablePng(tables[0], logos);
const startUp = Number((performance.now() - started).toFixed(1));
const table = measure(tables, (input) => tablePng(input, logos));
const bracket = measure(brackets, (input) => bracketPng(input, logos));
console.log(
  `group tables: ${table.images} images x ${ROUNDS}: first ${JSON.stringify(table.first)} ms, cached ${JSON.stringify(table.cached)} ms`,
);
console.log(
  `brackets:     ${bracket.images} images x ${ROUNDS}: first ${JSON.stringify(bracket.first)} ms, cached ${JSON.stringify(bracket.cached)} ms`,
);
void imageStats;
await client.close();
await service.close();
const budget = 150;
console.log(
  JSON.stringify({
    bench: 'images',
    quick,
    start_up_ms: startUp,
    logo_fetch: logoFetch,
    table,
    bracket,
    budget_ms: budget,
    within_budget: table.first.worst < budget && bracket.first.worst < budget,
  }),
);
