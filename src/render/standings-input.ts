/**
 * What the standings pictures may show, from what `/standings` read: the caller's spoiler policy
 * decides here, before anything is drawn (`standings-image.ts` draws only what it is given).
 *
 * - A table card: its columns and rows as text; a column holding a spoiler (a hidden result) is left
 *   out whole, with a note saying so. A card without a table (policy `hide`) gets no picture.
 * - A bracket: under `show`, every team, score, winner and the champion; under `spoiler` and
 *   `hide`, the first upper-bracket round's teams only (the seeding, not a result), every later
 *   slot as "?" (who advanced is a result, and so is whether a slot is decided), no score, no
 *   champion.
 * - Logos (`logos.ts`): a team's logo goes only where its name is drawn (a "?" slot has none: the
 *   logo would tell who advanced), fetched after the policy has chosen what is drawn.
 */

import { bracketRounds, roundLabel } from '../bot/bracket-rounds.ts';
import { isFinished, orderedParticipants, teamName } from '../bot/format.ts';
import type { NameIndex } from '../bot/names.ts';
import { type Card, plainText, type Span } from '../bot/reply.ts';
import type { SpoilerPolicy } from '../bot/settings.ts';
import { INTL_TAGS, type Translate } from '../i18n/i18n.ts';
import type { BracketPart, Series } from '../protocol/types.ts';
import { fetchLogos, logoUrlOf } from './logos.ts';
import {
  type BracketImage,
  type BracketSeries,
  type BracketSlot,
  bracketPng,
  type TableImage,
  tablePng,
} from './standings-image.ts';

/**
 * Drawn under a picture whose results are left out. A picture holds no command: each platform
 * writes `/settings spoilers` its own way (`/matchday settings spoilers` on Slack), so the note
 * names the setting, the same words on every platform, in the reader's language.
 */
export const hiddenNote = (t: Translate): string => t('commands.standings.picture.hidden');

const hasSpoiler = (cell: readonly Span[]): boolean =>
  cell.some((span) => typeof span === 'object' && 'spoiler' in span);

/** The logo URLs of the teams of these rosters, by the team name the cards write (`teamName`). */
export function logoUrlsOf(names: NameIndex, rosters: readonly number[]): Map<string, string> {
  const urls = new Map<string, string>();
  for (const id of rosters) {
    const url = logoUrlOf(names.teamOfRoster(id));
    if (url) urls.set(teamName(names, id), url);
  }
  return urls;
}

/**
 * The picture of a table card, or undefined when the card has no table (nothing to draw). With
 * `logoUrls` (team name to logo URL), a row whose "Team" cell names a team with a logo gets it.
 */
export function tableImageOf(
  card: Card,
  t: Translate,
  logoUrls?: ReadonlyMap<string, string>,
): TableImage | undefined {
  const table = card.table;
  if (!table || table.rows.length === 0) return undefined;
  const keep = table.columns.map((_, i) => !table.rows.some((row) => hasSpoiler(row[i] ?? [])));
  if (!keep.some(Boolean)) return undefined;
  const columns = table.columns.filter((_, i) => keep[i]);
  const rows = table.rows.map((row) => row.filter((_, i) => keep[i]).map((cell) => plainText(cell)));
  // The team column: the one whose cells name teams with logos (its header is in the reader's language).
  const column = logoUrls ? columns.findIndex((_, i) => rows.some((row) => logoUrls.has(row[i] ?? ''))) : -1;
  const urls = column >= 0 && logoUrls ? rows.map((row) => logoUrls.get(row[column] ?? '')) : [];
  return {
    title: card.title,
    columns,
    rows,
    ...(table.cut ? { cut: table.cut } : {}),
    ...(urls.some(Boolean) ? { logos: { column, rows: urls } } : {}),
    ...(keep.every(Boolean) ? {} : { note: hiddenNote(t) }),
  };
}

/** The picture of a double-elimination bracket under the spoiler policy. */
export function bracketImageOf(
  title: string,
  series: readonly Series[],
  names: NameIndex,
  policy: SpoilerPolicy,
  t: Translate,
  /** The start of an unplayed series as the reader writes it (their language and time zone). */
  when?: (start: string) => string,
): BracketImage | undefined {
  const rounds = bracketRounds(series);
  if (rounds.size === 0) return undefined;
  const order: BracketPart[] = ['UB', 'LB', 'GF'];
  const ordered = [...rounds.values()].sort(
    (a, b) => order.indexOf(a.part) - order.indexOf(b.part) || a.col - b.col,
  );
  const firstCol = (part: BracketPart) =>
    Math.min(...ordered.filter((r) => r.part === part).map((r) => r.col));
  const show = policy === 'show';
  let champion: string | undefined;
  const image: BracketImage = {
    title,
    rounds: ordered.map((round) => {
      const seeding = round.part === 'UB' && round.col === firstCol('UB');
      return {
        part: round.part,
        label: roundLabel(t, round, ordered),
        series: round.series
          .sort((a, b) => (a.bracket_position?.offset ?? 0) - (b.bracket_position?.offset ?? 0))
          .map((s) => {
            const [home, away] = orderedParticipants(s);
            const slot = (p: typeof home): BracketSlot => {
              if (!show && !seeding) return { hidden: true };
              if (!p) return {};
              const team = teamName(names, p.roster.id);
              const logo = logoUrlOf(names.teamOfRoster(p.roster.id));
              if (!show) return logo ? { team, logo } : { team };
              const scored = isFinished(s) || s.lifecycle === 'live';
              return {
                team,
                ...(logo ? { logo } : {}),
                ...(scored ? { score: p.score } : {}),
                ...(isFinished(s) && p.winner ? { winner: true } : {}),
              };
            };
            const pair: BracketSeries = { a: slot(home), b: slot(away) };
            // A LIVE mark, or when an unplayed series starts (not a result under any policy).
            if (s.lifecycle === 'live') pair.live = t('commands.standings.live');
            else if (!isFinished(s) && s.start && when) pair.when = when(s.start);
            if (show && round.part === 'GF' && isFinished(s)) {
              const won = [home, away].find((p) => p?.winner);
              if (won) champion = teamName(names, won.roster.id);
            }
            return pair;
          }),
      };
    }),
    ...(show ? {} : { note: hiddenNote(t) }),
    words: { tbd: t('cards.series.tbd'), champion: t('commands.standings.picture.champion') },
  };
  if (champion) image.champion = champion;
  return image;
}

/**
 * The card's picture as an attachment (PNG bytes, a file name, the alt text), with the logos of
 * `logoUrls` (team name to URL, `logoUrlsOf`) that could be fetched.
 */
export async function attachTable(
  card: Card,
  fileName: string,
  t: Translate,
  logoUrls?: ReadonlyMap<string, string>,
): Promise<Card> {
  const input = tableImageOf(card, t, logoUrls);
  if (!input) return card;
  const logos = await fetchLogos((input.logos?.rows ?? []).filter((url) => url !== undefined));
  card.image = {
    png: tablePng(input, logos),
    name: fileName,
    alt: t('commands.standings.picture.tableAlt', { title: card.title }),
  };
  return card;
}

export async function attachBracket(
  card: Card,
  series: readonly Series[],
  names: NameIndex,
  policy: SpoilerPolicy,
  fileName: string,
  t: Translate,
  timezone = 'UTC',
): Promise<Card> {
  const format = new Intl.DateTimeFormat(INTL_TAGS[t.locale], {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: timezone,
    timeZoneName: 'short',
  });
  const when = (start: string) => format.format(new Date(start));
  const input = bracketImageOf(card.title, series, names, policy, t, when);
  if (!input) return card;
  const urls = input.rounds.flatMap((r) => r.series.flatMap((s) => [s.a.logo, s.b.logo]));
  const logos = await fetchLogos(urls.filter((url) => url !== undefined));
  card.image = {
    png: bracketPng(input, logos),
    name: fileName,
    alt: t('commands.standings.picture.bracketAlt', { title: card.title }),
  };
  return card;
}
