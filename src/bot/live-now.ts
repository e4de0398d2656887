/**
 * The current game of a live card, in its game's words: one function reads a live summary of any
 * kind (`src/protocol/live-summary.ts`) and says it the same way wherever it is shown (`/live`,
 * the notifier's live card), whichever source it came from. A MOBA's two sources (computer vision
 * and API) are first reduced to the same figures, so they read alike word for word.
 *
 * - MOBA: kills, towers and barracks destroyed, gold (net worth) lead, clock;
 * - shooter: rounds, the round and half, each team's side, economy (money and buy);
 * - e-soccer: goals, the game minute and half, goal scorers' minutes, shots, possession;
 * - RTS: supply, army value, workers, clock;
 * - battle royale: teams alive, zone, clock; every participant's place and kills (a table).
 */
import { formatMoney, type Translate } from '../i18n/i18n.ts';
import {
  type BattleRoyaleLiveSummary,
  type EsoccerLiveSummary,
  isMobaSummary,
  type LiveSummary,
  type MobaLiveSummary,
  type RtsLiveSummary,
  type ShooterEconomy,
  type ShooterLiveSummary,
} from '../protocol/live-summary.ts';
import type { Field, Table, Text } from './reply.ts';

/** What the card shows of the current game: the "Now" line, and the details below it. */
interface LiveNow {
  /** Score (or state) and clock, e.g. "A 11–5 B (rounds) · round 17, 2nd half". */
  line: string;
  /** Further figures, each a short "A n · B m" line. */
  fields: Field[];
  /** Every participant of a lobby (battle royale). */
  table?: Table;
}

/** Names a roster (the card's team names). */
type RosterName = (rosterId: number) => string;

/** "12:34" from milliseconds. */
function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}

const half = (n: 1 | 2, t: Translate) => t(n === 1 ? 'cards.live.firstHalf' : 'cards.live.secondHalf');

/** "A 3 · B 5": one figure per side, home first. */
function pair(homeName: string, home: string | number, awayName: string, away: string | number): Text {
  return [`${homeName} ${home} · ${awayName} ${away}`];
}

/** The current game in its game's words. */
export function liveNow(summary: LiveSummary, name: RosterName, t: Translate): LiveNow {
  if (isMobaSummary(summary)) return mobaNow(summary, name, t);
  switch (summary.game_kind) {
    case 'shooter':
      return shooterNow(summary, name, t);
    case 'esoccer':
      return esoccerNow(summary, name, t);
    case 'rts':
      return rtsNow(summary, name, t);
    case 'battle-royale':
      return battleRoyaleNow(summary, name, t);
  }
}

// ---- MOBA -------------------------------------------------------------------------------------

/** A MOBA summary of either source, reduced to what the card says. Home first. */
interface MobaFigures {
  rosters: [number, number];
  kills: [number, number];
  /** Towers and barracks each side has destroyed (of the other's). */
  towers: [number, number];
  barracks: [number, number];
  /** Home's net worth minus away's (negative: away leads). */
  goldLead: number;
  clockMs: number;
  over: boolean;
}

function total(list: { total: number }[] | undefined): number {
  return (list ?? []).reduce((sum, entry) => sum + entry.total, 0);
}

/** Both sources to the same figures: the computer-vision counts what each side destroyed, the API what stands. */
export function mobaFigures(summary: MobaLiveSummary): MobaFigures {
  if ('seed_indexed_state' in summary) {
    const { home, away } = summary.seed_indexed_state.teams;
    return {
      rosters: [home.roster.id, away.roster.id],
      kills: [home.stats.score, away.stats.score],
      towers: [total(home.stats.structures.kills.towers), total(away.stats.structures.kills.towers)],
      barracks: [total(home.stats.structures.kills.barracks), total(away.stats.structures.kills.barracks)],
      // Each side's lead is over the other: home's alone is the lead.
      goldLead: home.state.net_worth_lead,
      clockMs: summary.match.timeline.clock.milliseconds,
      over: summary.match.timeline.end !== null,
    };
  }
  const { home, away } = summary.teams;
  const fallen = (list: { standing: boolean }[]) => list.filter((s) => !s.standing).length;
  const worth = (t: typeof home) => t.players.reduce((sum, p) => sum + (p.gold?.net_worth ?? 0), 0);
  return {
    rosters: [home.roster.id, away.roster.id],
    kills: [home.score, away.score],
    towers: [fallen(away.structures_status.towers), fallen(home.structures_status.towers)],
    barracks: [fallen(away.structures_status.barracks), fallen(home.structures_status.barracks)],
    goldLead: worth(home) - worth(away),
    clockMs: summary.match.clock.milliseconds,
    over: summary.timeline.end !== null,
  };
}

function mobaNow(summary: MobaLiveSummary, name: RosterName, t: Translate): LiveNow {
  const f = mobaFigures(summary);
  const [h, a] = [name(f.rosters[0]), name(f.rosters[1])];
  const fields: Field[] = [
    { name: t('cards.live.towers'), value: pair(h, f.towers[0], a, f.towers[1]), inline: true },
  ];
  if (f.barracks[0] + f.barracks[1] > 0)
    fields.push({
      name: t('cards.live.barracks'),
      value: pair(h, f.barracks[0], a, f.barracks[1]),
      inline: true,
    });
  fields.push({
    name: t('cards.live.goldLead'),
    value: [
      f.goldLead === 0
        ? t('cards.live.even')
        : `${f.goldLead > 0 ? h : a} +${t.number(Math.abs(f.goldLead))}`,
    ],
    inline: true,
  });
  const clock = f.over ? t('cards.live.gameOver') : formatClock(f.clockMs);
  return { line: `${h} ${f.kills[0]}–${f.kills[1]} ${a} (${t('cards.live.kills')}) · ${clock}`, fields };
}

// ---- shooter ----------------------------------------------------------------------------------

const BUY = {
  pistol: 'cards.live.buy.pistol',
  full: 'cards.live.buy.full',
  force: 'cards.live.buy.force',
  eco: 'cards.live.buy.eco',
} as const satisfies Record<ShooterEconomy['buy'], string>;

function shooterNow(summary: ShooterLiveSummary, name: RosterName, t: Translate): LiveNow {
  const { home, away } = summary.teams;
  const [h, a] = [name(home.roster.id), name(away.roster.id)];
  const over = summary.match.phase === 'post-game';
  const where = over
    ? t('cards.live.mapOver')
    : t('cards.live.round', { round: summary.round.number, half: half(summary.round.half, t) });
  // The buy with what it bought (the equipment's value), then the money kept back.
  const money = (e: ShooterEconomy) =>
    t('cards.live.buyValue', {
      buy: t(BUY[e.buy]),
      equipment: formatMoney(t.locale, e.equipment_value),
      money: formatMoney(t.locale, e.money),
    });
  const fields: Field[] = [];
  if (!over) {
    if (home.side && away.side)
      fields.push({
        name: t('cards.live.sides'),
        value: pair(h, t(`cards.live.side.${home.side}`), a, t(`cards.live.side.${away.side}`)),
        inline: true,
      });
    // Economy if the source has it (the v2 interface's rounds do not).
    if (home.economy && away.economy)
      fields.push({
        name: t('cards.live.economy'),
        value: pair(h, money(home.economy), a, money(away.economy)),
        inline: true,
      });
  }
  if (summary.round.half === 2 || over)
    fields.push({
      name: t('cards.live.roundsByHalf'),
      value: [
        t('cards.live.halves', {
          first: `${home.halves[0]}–${away.halves[0]}`,
          second: `${home.halves[1]}–${away.halves[1]}`,
        }),
      ],
      inline: true,
    });
  return { line: `${h} ${home.score}–${away.score} ${a} (${t('cards.live.rounds')}) · ${where}`, fields };
}

// ---- e-soccer ---------------------------------------------------------------------------------

function esoccerNow(summary: EsoccerLiveSummary, name: RosterName, t: Translate): LiveNow {
  const { home, away } = summary.teams;
  const [h, a] = [name(home.roster.id), name(away.roster.id)];
  const { period } = summary;
  const where =
    period.state === 'full-time' ? t('cards.live.fullTime') : `${period.minute}', ${half(period.number, t)}`;
  const fields: Field[] = [];
  if (summary.goals.length > 0)
    fields.push({
      name: t('cards.live.goalsField'),
      value: [summary.goals.map((g) => `${g.minute}' ${g.team === 'home' ? h : a}`).join(', ')],
      inline: true,
    });
  fields.push({
    name: t('cards.live.shots'),
    value: pair(h, `${home.shots} (${home.shots_on_target})`, a, `${away.shots} (${away.shots_on_target})`),
    inline: true,
  });
  fields.push({
    name: t('cards.live.possession'),
    value: pair(h, `${home.possession}%`, a, `${away.possession}%`),
    inline: true,
  });
  return { line: `${h} ${home.score}–${away.score} ${a} (${t('cards.live.goals')}) · ${where}`, fields };
}

// ---- real-time strategy -----------------------------------------------------------------------

function rtsNow(summary: RtsLiveSummary, name: RosterName, t: Translate): LiveNow {
  const { home, away } = summary.teams;
  const [h, a] = [name(home.roster.id), name(away.roster.id)];
  const over = summary.match.phase === 'post-game';
  const decided = home.score + away.score > 0;
  const state = decided
    ? t('cards.live.winsMap', { team: home.score > away.score ? h : a })
    : `${h} vs ${a} · ${formatClock(summary.match.clock.milliseconds)}`;
  const fields: Field[] = [
    {
      name: t('cards.live.supply'),
      value: pair(h, `${home.supply.used}/${home.supply.cap}`, a, `${away.supply.used}/${away.supply.cap}`),
      inline: true,
    },
    {
      name: t('cards.live.army'),
      value: pair(h, t.number(home.army_value), a, t.number(away.army_value)),
      inline: true,
    },
    { name: t('cards.live.workers'), value: pair(h, home.workers, a, away.workers), inline: true },
  ];
  return { line: over && !decided ? `${h} vs ${a} · ${t('cards.live.mapOver')}` : state, fields };
}

// ---- battle royale ----------------------------------------------------------------------------

function battleRoyaleNow(summary: BattleRoyaleLiveSummary, name: RosterName, t: Translate): LiveNow {
  const over = summary.match.phase === 'post-game';
  const teams = summary.teams.length;
  // Standing teams first (most kills first), then the fallen by place.
  const rows = [...summary.teams].sort(
    (x, y) =>
      Number(y.alive && !over) - Number(x.alive && !over) ||
      (x.placement ?? 0) - (y.placement ?? 0) ||
      y.kills - x.kills ||
      x.seed - y.seed,
  );
  const winner = over ? summary.teams.find((team) => team.placement === 1) : undefined;
  const line = winner
    ? `${t('cards.live.mapOver')} · ${t('cards.live.lastStanding', { team: name(winner.roster.id) })}`
    : [
        t('cards.live.alive', { alive: summary.teams_alive, count: teams }),
        t('cards.live.zone', { zone: summary.zone }),
        formatClock(summary.match.clock.milliseconds),
      ].join(' · ');
  const table: Table = {
    columns: [
      { header: t('cards.live.place') },
      { header: t('cards.live.team') },
      { header: t('cards.live.killsHeader'), align: 'right' },
    ],
    rows: rows.map((row) => [
      [
        row.placement !== null
          ? `#${row.placement}`
          : t('cards.live.aliveLeft', { count: row.players_alive }),
      ],
      [name(row.roster.id)],
      [t.number(row.kills)],
    ]),
  };
  return { line, fields: [], table };
}
