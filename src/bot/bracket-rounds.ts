/**
 * A double-elimination bracket's rounds and their names, shared by `/standings` (its text and its
 * picture, `src/render/standings-input.ts`) and the daily digest's event column
 * (`src/notify/digest.ts`): "Upper-bracket final", not "Playoffs Bracket" on every row.
 */
import type { Translate } from '../i18n/i18n.ts';
import type { BracketPart, Series } from '../protocol/types.ts';

/** A bracket round: its part and column, and its series. */
export interface BracketRound {
  part: BracketPart;
  col: number;
  series: Series[];
}

/** A bracket's series by round (`UB:1`, `LB:2`, `GF:1`, ...); series without a position are left out. */
export function bracketRounds(series: readonly Series[]): Map<string, BracketRound> {
  const rounds = new Map<string, BracketRound>();
  for (const s of series) {
    const pos = s.bracket_position;
    if (!pos) continue;
    const key = `${pos.part}:${pos.col}`;
    const round = rounds.get(key) ?? { part: pos.part, col: pos.col, series: [] };
    round.series.push(s);
    rounds.set(key, round);
  }
  return rounds;
}

/**
 * A round's name as fans say it and the match preview writes it (`src/bot/preview-stakes.ts`):
 * "Grand final", "Upper-bracket final", "Upper-bracket semifinals" (the two series before it),
 * "Upper-bracket quarterfinals" (the four before those), "Lower-bracket final", else
 * "Upper bracket · round 2".
 */
export function roundLabel(t: Translate, round: BracketRound, rounds: Iterable<BracketRound>): string {
  if (round.part === 'GF') return t('commands.standings.grandFinal');
  const cols = [...rounds].filter((r) => r.part === round.part).map((r) => r.col);
  const first = Math.min(...cols);
  const last = Math.max(...cols);
  const fromLast = last - round.col;
  if (last > first) {
    if (round.part === 'UB' && fromLast === 0) return t('commands.standings.ubFinal');
    if (round.part === 'LB' && fromLast === 0) return t('commands.standings.lbFinal');
    if (round.part === 'UB' && fromLast === 1 && round.series.length === 2)
      return t('commands.standings.ubSemifinals');
    if (round.part === 'UB' && fromLast === 2 && round.series.length === 4)
      return t('commands.standings.ubQuarterfinals');
  }
  const part = t(round.part === 'UB' ? 'commands.standings.upper' : 'commands.standings.lower');
  return `${part} · ${t('commands.standings.round', { round: round.col - first + 1 })}`;
}

/** When a series is played: its start, else never (unscheduled last). */
export const startOf = (s: Series): number => (s.start ? Date.parse(s.start) : Number.POSITIVE_INFINITY);

/** A bracket series' round name among its substage's series (`stageSeries`, itself included or not). */
export function seriesRoundLabel(
  t: Translate,
  series: Series,
  stageSeries: readonly Series[],
): string | undefined {
  const pos = series.bracket_position;
  if (!pos) return undefined;
  const rounds = bracketRounds([...stageSeries.filter((s) => s.id !== series.id), series]);
  return roundLabel(t, rounds.get(`${pos.part}:${pos.col}`)!, rounds.values());
}
