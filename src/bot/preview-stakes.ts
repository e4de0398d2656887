/**
 * What a preview says of a series' place in its stage (`./preview.ts`): the bracket round it is
 * in, what it decides (where its winner and loser go, or a group's advance rules) and, for a team
 * not known yet, which series decides it. A preview is read once and shared by every reader, so
 * these are held as values (a round, a stake) and written in the reader's language only when the
 * preview becomes lines. Stage titles and team names are data and stay as the data has them.
 */

import type { Translate } from '../i18n/i18n.ts';
import type { Series, Substage } from '../protocol/types.ts';
import { matchup, type SeriesLabels } from './format.ts';

const ROUND_ROBIN = 1;
const BRACKET = 2;
const LOBBY = 3;

/** A bracket round: the grand final, or a round of the upper or lower bracket (`final`: its last). */
type RoundRef = { part: 'GF' } | { part: 'UB' | 'LB'; round: number; final: boolean };

/** One thing a series decides. `to` is the title of the stage a group sends teams to, when known. */
export type Stake =
  | { kind: 'champion' }
  | { kind: 'runnerUp' }
  | { kind: 'winnerTo'; round: RoundRef }
  | { kind: 'loserTo'; round: RoundRef }
  | { kind: 'eliminated' }
  | { kind: 'advance'; count: number; to?: string }
  | { kind: 'drop'; count: number; to?: string }
  | { kind: 'points'; table: 'lobby' | 'group' };

/** For a TBD slot: the winner (or loser) of the series feeding it, by its teams or its round. */
export interface DecidedBy {
  side: 'winner' | 'loser';
  round: RoundRef;
  /** The feeding series' teams ("A vs B", "A vs TBD"); absent while both are unknown. */
  match?: string;
}

/** A bracket series' stage and round: "Playoffs · upper-bracket round 1". */
export interface StageRound {
  title?: string;
  round: RoundRef;
}

/** The round of a bracket series among its substage's series. */
function roundOf(series: Series, stageSeries: readonly Series[]): RoundRef | undefined {
  const position = series.bracket_position;
  if (!position) return undefined;
  if (position.part === 'GF') return { part: 'GF' };
  const cols = stageSeries
    .filter((s) => s.bracket_position?.part === position.part)
    .map((s) => s.bracket_position!.col);
  const first = Math.min(position.col, ...cols);
  const last = Math.max(position.col, ...cols);
  return {
    part: position.part,
    round: position.col - first + 1,
    final: position.col === last && last > first,
  };
}

/** A bracket series' stage and round; undefined for a group (its name is on the card already). */
export function stageRoundOf(
  series: Series,
  substage: Substage | undefined,
  stageSeries: readonly Series[],
  labels: SeriesLabels,
): StageRound | undefined {
  const round = roundOf(series, stageSeries);
  if (!round) return undefined;
  const title = substage?.title ?? labels.substage(series.substage.id)?.title;
  return title ? { title, round } : { round };
}

/** A part's round as `roundOf` names it: `round` counted from 1 among `rounds` rounds. */
function partRound(part: 'UB' | 'LB', round: number, rounds: number): RoundRef {
  return { part, round, final: round === rounds && rounds > 1 };
}

/**
 * Where a bracket series' winner and loser go by the shape of a double-elimination bracket alone,
 * for a chain that does not say. The winner of an upper-bracket round plays the next upper round,
 * the upper final's the grand final; a lower round's winner plays the next lower round, the lower
 * final's the grand final. The loser of upper round 1 drops to lower round 1, of upper round r > 1
 * to lower round 2(r - 1) (where the losers of round r - 1's lower matches wait: lower round 4 in
 * an 8-team bracket for the upper final); a lower-bracket loser is out. Each round is named only
 * when the stage has a series in it, so a bracket without a lower part eliminates its losers.
 */
function bracketShape(
  series: Series,
  stageSeries: readonly Series[],
): { winner?: RoundRef; loser?: RoundRef } | undefined {
  const position = series.bracket_position;
  if (!position || position.part === 'GF') return undefined;
  const cols = (part: 'UB' | 'LB') => {
    const list = stageSeries
      .filter((s) => s.bracket_position?.part === part)
      .map((s) => s.bracket_position!.col);
    if (part === position.part) list.push(position.col);
    return list.length > 0
      ? { first: Math.min(...list), rounds: Math.max(...list) - Math.min(...list) + 1 }
      : undefined;
  };
  const own = cols(position.part)!;
  const lower = cols('LB');
  const grandFinal = stageSeries.some((s) => s.bracket_position?.part === 'GF');
  const round = position.col - own.first + 1;
  const shape: { winner?: RoundRef; loser?: RoundRef } = {};
  if (round < own.rounds) shape.winner = partRound(position.part, round + 1, own.rounds);
  else if (grandFinal) shape.winner = { part: 'GF' };
  if (position.part === 'UB' && lower) {
    const to = round === 1 ? 1 : 2 * (round - 1);
    if (to <= lower.rounds) shape.loser = partRound('LB', to, lower.rounds);
  }
  return shape;
}

/**
 * What the series decides. In a double-elimination bracket, the series its winner and its loser
 * move on to (the series whose `chain` holds this one: an upper-bracket series feeds the next
 * upper round with its winner and the lower bracket with its loser); the grand final decides the
 * champion. In a group or lobby, the stage's advance and descend rules.
 */
export function stakesOf(
  series: Series,
  substage: Substage | undefined,
  stageSeries: readonly Series[],
  /** Titles of the stages a group's rules send teams to, by substage id. */
  titles: ReadonlyMap<number, string>,
): Stake[] {
  const position = series.bracket_position;
  if (position && (substage?.type ?? BRACKET) === BRACKET) {
    if (position.part === 'GF') return [{ kind: 'champion' }, { kind: 'runnerUp' }];
    const next = stageSeries.filter((s) => s.chain.some((c) => c.id === series.id) && s.id !== series.id);
    const winnerTo = next.find((s) => s.bracket_position?.part !== 'LB' || position.part === 'LB');
    const loserTo = position.part === 'UB' ? next.find((s) => s.bracket_position?.part === 'LB') : undefined;
    // A chain that names only one feeder (v2 keeps the chain's root alone: src/client/v2/records.ts)
    // leaves a series no one names as feeding them: its rounds then come from the bracket's shape.
    const shape = bracketShape(series, stageSeries);
    const winnerRound = (winnerTo && roundOf(winnerTo, stageSeries)) ?? shape?.winner;
    const loserRound =
      (loserTo && roundOf(loserTo, stageSeries)) ?? (position.part === 'UB' ? shape?.loser : undefined);
    const stakes: Stake[] = [];
    if (winnerRound) stakes.push({ kind: 'winnerTo', round: winnerRound });
    stakes.push(loserRound ? { kind: 'loserTo', round: loserRound } : { kind: 'eliminated' });
    return stakes;
  }
  if (!substage) return [];
  const stakes: Stake[] = [];
  const rules = substage.rules;
  const target = (ref: { id: number } | null) => (ref ? titles.get(ref.id) : undefined);
  for (const [kind, rule] of [
    ['advance', rules.advance],
    ['drop', rules.descend],
  ] as const) {
    if (!rule || rule.number <= 0) continue;
    const to = target(rule.substage);
    stakes.push(to ? { kind, count: rule.number, to } : { kind, count: rule.number });
  }
  if (stakes.length === 0 && (substage.type === ROUND_ROBIN || substage.type === LOBBY))
    stakes.push({ kind: 'points', table: substage.type === LOBBY ? 'lobby' : 'group' });
  return stakes;
}

/** For a TBD slot: the series feeding it and whether its winner or its loser comes. */
export function decidedBy(
  series: Series,
  slot: number,
  stageSeries: readonly Series[],
  labels: SeriesLabels,
  /** Writes a lobby's matchup; a bracket's feeder has two slots, so only team names are written. */
  t: Translate,
): DecidedBy | undefined {
  if (series.chain.length !== 2) return undefined;
  const feeder = stageSeries.find((s) => s.id === series.chain[slot]?.id);
  if (!feeder?.bracket_position || !series.bracket_position) return undefined;
  const round = roundOf(feeder, stageSeries);
  if (!round) return undefined;
  const loser = feeder.bracket_position.part === 'UB' && series.bracket_position.part === 'LB';
  const by: DecidedBy = { side: loser ? 'loser' : 'winner', round };
  // Both of the feeder's teams unknown too: its round says more than "TBD vs TBD".
  if (feeder.participants.length > 0) by.match = matchup(feeder, labels, t);
  return by;
}

/** "upper-bracket round 1", "lower-bracket final", "grand final": a round as a name. */
function roundText(round: RoundRef, t: Translate): string {
  if (round.part === 'GF') return t('cards.preview.round.grandFinal');
  if (round.final)
    return t(round.part === 'UB' ? 'cards.preview.round.ubFinal' : 'cards.preview.round.lbFinal');
  const key = round.part === 'UB' ? 'cards.preview.round.ub' : 'cards.preview.round.lb';
  return t(key, { round: t.number(round.round) });
}

/** "the upper-bracket final", "upper-bracket round 2": a round as where a team goes. */
function roundToText(round: RoundRef, t: Translate): string {
  if (round.part === 'GF') return t('cards.preview.roundTo.grandFinal');
  if (round.final)
    return t(round.part === 'UB' ? 'cards.preview.roundTo.ubFinal' : 'cards.preview.roundTo.lbFinal');
  const key = round.part === 'UB' ? 'cards.preview.roundTo.ub' : 'cards.preview.roundTo.lb';
  return t(key, { round: t.number(round.round) });
}

/** One stake in the reader's language: "winner to the upper-bracket final", "the top 2 advance to X". */
export function stakeText(stake: Stake, t: Translate): string {
  switch (stake.kind) {
    case 'champion':
      return t('cards.preview.stake.champion');
    case 'runnerUp':
      return t('cards.preview.stake.runnerUp');
    case 'eliminated':
      return t('cards.preview.stake.eliminated');
    case 'winnerTo':
      return t('cards.preview.stake.winnerTo', { round: roundToText(stake.round, t) });
    case 'loserTo':
      return t('cards.preview.stake.loserTo', { round: roundToText(stake.round, t) });
    case 'advance':
      return stake.to
        ? t('cards.preview.stake.advanceTo', { count: stake.count, to: stake.to })
        : t('cards.preview.stake.advance', { count: stake.count });
    case 'drop':
      return stake.to
        ? t('cards.preview.stake.dropTo', { count: stake.count, to: stake.to })
        : t('cards.preview.stake.drop', { count: stake.count });
    case 'points':
      return t(
        stake.table === 'lobby' ? 'cards.preview.stake.lobbyPoints' : 'cards.preview.stake.groupPoints',
      );
  }
}

/** "winner of A vs B (upper-bracket round 1)", or "loser of the upper-bracket final". */
export function decidedByText(by: DecidedBy, t: Translate): string {
  const round = roundText(by.round, t);
  if (by.match) {
    const key = by.side === 'winner' ? 'cards.preview.decided.winnerOf' : 'cards.preview.decided.loserOf';
    return t(key, { match: by.match, round });
  }
  const key =
    by.side === 'winner' ? 'cards.preview.decided.winnerOfRound' : 'cards.preview.decided.loserOfRound';
  return t(key, { round });
}

/** "Playoffs · upper-bracket round 1". */
export function stageText(stage: StageRound, t: Translate): string {
  return [stage.title, roundText(stage.round, t)].filter(Boolean).join(' · ');
}
