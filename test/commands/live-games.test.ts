/**
 * Each kind of game's live card speaks its own game: `/live series:X` and the
 * notifier's live card for a match being played of a MOBA, a shooter, an e-soccer game, an RTS
 * and a battle royale, rendered on the terminal, Discord and Slack. The vocabulary is the game's,
 * never a MOBA's for another game; the figures agree with the world; and the card and `/live` say
 * the same line for the same match, whichever summary source each read.
 *
 * On v2 the cards read the light summary, which carries less: a shooter's rounds and sides
 * without an economy, a MOBA's kills, towers and gold; the other games' light summaries name nothing
 * a card can say, so their cards show the match score from the match resource (docs/data-client.md,
 * "What differs on v2"). The expectations below say which words each interface's card has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Reply, replyText } from '../../src/bot/reply.ts';
import { defaultSettings } from '../../src/bot/settings.ts';
import type { Platform } from '../../src/core/tenant-id.ts';
import { translator } from '../../src/i18n/i18n.ts';
import { liveReply } from '../../src/notify/cards.ts';
import { renderReply as renderDiscord } from '../../src/platforms/discord/render.ts';
import { renderReply as renderSlack } from '../../src/platforms/slack/render.ts';
import { renderReply as renderTerminal } from '../../src/platforms/terminal/render.ts';
import type { GameKind, LiveSummary } from '../../src/protocol/live-summary.ts';
import type { Match } from '../../src/protocol/types.ts';
import { APIS, type Api, call, FROZEN_AT, type Stack, startStack, tenantWith } from './helpers.ts';
import { type LivePick, pickLive as pickLiveIn } from './live-picks.ts';
import { teamNameOf } from './truth.ts';

let stack: Stack;

const PLATFORMS: Platform[] = ['terminal', 'discord', 'slack'];
const KINDS: GameKind[] = ['moba', 'shooter', 'esoccer', 'rts', 'battle-royale'];

/** Words a MOBA card uses and no other game's may. */
const MOBA_WORDS = /\b(towers?|barracks|net worth|gold|structures?)\b|\(kills\)/i;

/** What each kind's detailed card must say (in any of its lines). */
const WORDS: Record<GameKind, RegExp[]> = {
  moba: [/\(kills\)/, /Towers destroyed/, /Gold lead/],
  shooter: [
    /\(rounds\)/,
    /round \d+, (1st|2nd) half/,
    /Sides/,
    /\b(attack|defence)\b/,
    /Economy/,
    // The buy with the value of what it bought, then the money kept back.
    /(pistol round|full buy|force buy|eco): \$[\d,]+ equipment, \$[\d,]+ left/,
  ],
  esoccer: [/\(goals\)/, /\d+', (1st|2nd) half/, /Shots \(on target\)/, /Possession/],
  rts: [/Supply/, /\d+\/\d+/, /Army value/, /Workers/],
  'battle-royale': [/\d+ of \d+ teams alive/, /zone \d/, /Place/, /Kills/],
};

/**
 * What each kind's card says on v2: the MOBA's in full; a shooter's without the economy (v2 rounds
 * carry no bank); the others' match score (their light summaries carry nothing a card can name), a
 * lobby's as its most kills.
 */
const WORDS_V2: Record<GameKind, RegExp[]> = {
  moba: WORDS.moba,
  shooter: [/\(rounds\)/, /round \d+, (1st|2nd) half/, /Sides/, /\b(attack|defence)\b/],
  esoccer: [/Now: game \d/],
  rts: [/Now: game \d/],
  'battle-royale': [/most kills: /],
};

/** Words that belong to one other kind only (a shooter's card never counts goals, and so on). */
const FOREIGN: Record<GameKind, RegExp> = {
  moba: /\((rounds|goals)\)|Supply|teams alive|Economy/,
  // Never the money left labelled with the buy ("$1,500 (full buy)" read as a full buy of $1,500).
  shooter: /\((goals)\)|Supply|teams alive|Possession|\$[\d,]+ \((pistol round|full buy|force buy|eco)\)/,
  esoccer: /\((rounds)\)|Supply|teams alive|Economy/,
  rts: /\((rounds|goals)\)|teams alive|Economy|Possession/,
  'battle-royale': /\((rounds|goals)\)|Supply|Economy|Possession/,
};

type Pick = LivePick;

function pickLive(kind: GameKind): Pick {
  return pickLiveIn(stack.service.world, kind, FROZEN_AT);
}

/** The reply as each platform sends it, as one searchable text (terminal lines unwrapped). */
function renderedOn(reply: Reply, platform: Platform): string {
  if (platform === 'terminal')
    return renderTerminal(reply, { colour: false, timezone: 'UTC', now: stack.clock.now() }).replace(
      /\n▌ {2,}/g,
      ' ',
    );
  return JSON.stringify(platform === 'discord' ? renderDiscord(reply) : renderSlack(reply));
}

/**
 * The notifier's live card for the pick, from the summary `source` read through `reader` (v3: the
 * truth client, each source; v2: the stack's own v2 client, whose only source is the light summary,
 * absent for games whose light summary a card cannot read, as the notifier then has none).
 */
async function notifierCard(p: Pick, source: 'cv' | 'api', reader = stack.truth): Promise<Reply> {
  const summary = (await (source === 'cv'
    ? reader.matches.liveCv(p.match.id)
    : reader.matches.liveApi(p.match.id).catch((e: unknown) => {
        if (reader !== stack.truth && (e as Error).name === 'NotFoundError') return undefined;
        throw e;
      }))) as LiveSummary | undefined;
  const matches = (await reader.matches.list({
    filter: [['series.id', '=', p.plan.id]],
    order: 'order-asc',
    take: 50,
  })) as Match[];
  const series = await reader.series.get(p.plan.id);
  return liveReply(
    series,
    stack.names,
    { ...defaultSettings(), t: translator('en') },
    {
      matches: matches.filter((m) => m.deleted_at === null),
      ...(summary ? { summary } : {}),
      mapName: (id) => stack.names.mapName(id),
      first: false,
    },
  );
}

/** The "Now" field of a reply's first card: its name and its line. */
function nowOf(reply: Reply): string {
  const field = reply.cards[0]?.fields?.find((f) => f.name.startsWith('Now:'));
  expect(field, replyText(reply)).toBeDefined();
  return `${field!.name}: ${replyText({ cards: [{ title: '', description: [field!.value] }] }).trim()}`;
}

describe.each(APIS)('on %s', (api: Api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });
  const words = api === 'v2' ? WORDS_V2 : WORDS;

  describe.each(KINDS)('a live %s series', (kind) => {
    it("says its current game in its game's words on every platform, never a MOBA's for another game", async () => {
      const p = pickLive(kind);
      await stack.jump(p.at);
      const world = stack.service.world;
      for (const platform of PLATFORMS) {
        const tenant = await tenantWith(stack, {}, platform);
        const result = await call(stack, 'live', { series: String(p.plan.id) }, { tenant, platform });
        expect(result.outcome, result.text).toBe('ok');
        // The series, its matches, the current game's summary and the casters.
        expect(result.upstream).toBeLessThanOrEqual(4);
        const text = renderedOn(result.reply, platform);
        for (const word of words[kind]) expect(text, `${kind} on ${platform}`).toMatch(word);
        expect(text, `${kind} on ${platform}`).not.toMatch(FOREIGN[kind]);
        if (kind !== 'moba') expect(text, `${kind} on ${platform}`).not.toMatch(MOBA_WORDS);
        // The current game is named by its number and map, its figures agree with the match resource.
        expect(nowOf(result.reply)).toMatch(new RegExp(`^Now: game ${p.match.order} · \\S`));
      }
      const at = p.at.getTime();
      const scores = world.matchScores(p.plan, p.match, at);
      const tenant = await tenantWith(stack);
      const now = nowOf((await call(stack, 'live', { series: String(p.plan.id) }, { tenant })).reply);
      const [home, away] = [teamNameOf(world, p.plan.rosters[0]!), teamNameOf(world, p.plan.rosters[1]!)];
      if (api === 'v2' && kind === 'battle-royale') {
        // No placements on v2: the lobby's current game shows its kill leaders, from the match resource.
        const top = Math.max(...scores);
        const leader = teamNameOf(world, p.plan.rosters[scores.indexOf(top)]!);
        expect(now).toContain(`most kills: `);
        expect(now).toContain(`${leader} ${top}`);
      } else if (api === 'v2' && (kind === 'esoccer' || kind === 'rts')) {
        // No summary a card can read on v2: the match score, and nothing after it.
        expect(now).toMatch(new RegExp(`· [^·]+: ${home} ${scores[0]}–${scores[1]} ${away}$`));
      } else if (kind === 'battle-royale') {
        const alive = world.seriesPlan(p.plan.id)!.rosters.length;
        expect(now).toMatch(new RegExp(`\\d+ of ${alive} teams alive`));
      } else if (kind === 'rts') {
        // Undecided until the end: no score yet, the two sides and the clock.
        expect(scores).toEqual([0, 0]);
        expect(now).toContain(`${home} vs ${away} · `);
      } else {
        expect(now).toContain(`${home} ${scores[0]}–${scores[1]} ${away} (`);
      }
    });

    it('reads the same on the notifier card as on /live, from either summary source', async () => {
      const p = pickLive(kind);
      await stack.jump(p.at);
      const tenant = await tenantWith(stack);
      const live = (await call(stack, 'live', { series: String(p.plan.id) }, { tenant })).reply;
      const lines = (reply: Reply) =>
        replyText(reply)
          .split('\n')
          .filter((l) => !/^(Series \d|Stream|More streams|More: )/.test(l));
      // v3: both sources, read apart from the command; v2: the light summary, through the v2 client.
      const sources =
        api === 'v2'
          ? [['api', stack.client] as const]
          : [['cv', stack.truth] as const, ['api', stack.truth] as const];
      for (const [source, reader] of sources) {
        const card = await notifierCard(p, source, reader);
        expect(nowOf(card), source).toBe(nowOf(live));
        // Every line of the card (figures included) is the /live answer's, word for word.
        expect(lines(card), source).toEqual(lines(live));
      }
    });
  });

  describe('a battle-royale live card', () => {
    it('lists every participant of the lobby with its place or "alive" and its kills', async () => {
      // Late in the map, so some teams are out (with a place) and some still alive.
      const picked = pickLive('battle-royale');
      const { start, end } = picked.match;
      const p = { ...picked, at: new Date(start + Math.floor((end - start) * 0.9)) };
      await stack.jump(p.at);
      const world = stack.service.world;
      const result = await call(
        stack,
        'live',
        { series: String(p.plan.id) },
        { tenant: await tenantWith(stack) },
      );
      if (api === 'v2') {
        // v2 carries no placements or per-team kills of a game being played: no lobby table, the
        // current game's kill leaders instead (the line checked above).
        expect(result.outcome).toBe('ok');
        expect(result.reply.cards[0]!.table).toBeUndefined();
        expect(nowOf(result.reply)).toContain('most kills: ');
        return;
      }
      const table = result.reply.cards[0]!.table!;
      expect(table.columns.map((c) => c.header)).toEqual(['Place', 'Team', 'Kills']);
      const names = table.rows.map((row) =>
        replyText({ cards: [{ title: '', description: [row[1]!] }] }).trim(),
      );
      expect(names.sort()).toEqual(p.plan.rosters.map((r) => teamNameOf(world, r)).sort());
      const kills = world.matchScores(p.plan, p.match, p.at.getTime());
      const total = table.rows.reduce((sum, row) => sum + Number(String(row[2]![0])), 0);
      expect(total).toBe(kills.reduce((a, b) => a + b, 0));
      const places = table.rows.map((row) => String(row[0]![0]));
      expect(places.some((x) => x.startsWith('alive'))).toBe(true);
      expect(places.some((x) => /^#\d+$/.test(x))).toBe(true);
    });
  });
});
