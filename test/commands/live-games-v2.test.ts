/**
 * Each kind of game's live card on the v2 interface (issue 12, item 2): a shooter's light summary
 * carries its rounds, read as the shooter summary (rounds, sides; v2 has no economy); a game whose
 * light summary has neither rounds nor structures shows its match score, never a MOBA's words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveNow } from '../../src/bot/live-now.ts';
import type { GameKind, LiveSummary } from '../../src/protocol/live-summary.ts';
import { call, FROZEN_AT, type Stack, startStack, tenantWith } from './helpers.ts';
import { pickLive } from './live-picks.ts';
import { teamNameOf } from './truth.ts';

let v2: Stack;
beforeAll(async () => {
  v2 = await startStack({ api: 'v2' });
});
afterAll(async () => {
  await v2?.close();
});

const MOBA_WORDS = /\b(towers?|barracks|net worth|gold|structures?)\b|\(kills\)/i;

async function liveOn(kind: GameKind) {
  const p = pickLive(v2.service.world, kind, FROZEN_AT);
  v2.clock.set(p.at);
  const result = await call(v2, 'live', { series: String(p.plan.id) }, { tenant: await tenantWith(v2) });
  expect(result.outcome, result.text).toBe('ok');
  return { p, result };
}

describe('/live on v2', () => {
  it("reads a shooter's rounds from its light summary: the same line as v3's summary says", async () => {
    const { p, result } = await liveOn('shooter');
    const world = v2.service.world;
    const v3 = (await v2.truth.matches.liveApi(p.match.id)) as LiveSummary;
    const line = liveNow(v3, (id) => teamNameOf(world, id)).line;
    expect(result.text).toContain(line);
    expect(result.text).toMatch(/\(rounds\) · round \d+, (1st|2nd) half/);
    expect(result.text).toMatch(/Sides: .+ (attack|defence) · .+ (attack|defence)/);
    // v2's rounds carry no bank: no economy line rather than a made-up one.
    expect(result.text).not.toContain('Economy');
    expect(result.text).not.toMatch(MOBA_WORDS);
  });

  it.each(['esoccer', 'rts', 'battle-royale'] as GameKind[])(
    "shows a %s game's match score without a MOBA's words",
    async (kind) => {
      const { result } = await liveOn(kind);
      expect(result.text).toMatch(/Now: game \d/);
      expect(result.text).not.toMatch(MOBA_WORDS);
    },
  );

  it("still reads a MOBA's towers and gold from the second light summary shape", async () => {
    const { result } = await liveOn('moba');
    expect(result.text).toMatch(/\(kills\) · \d+:\d\d/);
    expect(result.text).toContain('Towers destroyed');
  });
});
