/**
 * A match preview (issue 17, item 2): what a fan wants to know before a series starts. The recent
 * form of both teams (their last five finished series, won or lost and against whom), their
 * head-to-head record, the stage and what is at stake there (derived from the bracket's `chain`
 * and `bracket_position`, or the group's advance rules: never invented), and, for a participant
 * not known yet, which series decides it. `/series series:<id>` shows it in full; the first
 * reminder of a series carries a compact form of it.
 *
 * Reading is separate from showing: `readPreview` gathers the facts through `PreviewReads` (the
 * feed first, else the service), `previewLines` turns them into lines under the spoiler policy.
 * Form and head-to-head are results: behind a spoiler, or replaced by one line saying they are
 * hidden; what is at stake is the bracket's structure and is always shown. Where the reader's
 * policy is `hide`, `readPreview` is told `results: false` and reads neither (no form, no
 * head-to-head read upstream), as `resultSpans` withholds a score rather than drawing it.
 */

import { InvalidQueryError } from '../client/errors.ts';
import type { EsportsClient } from '../client/types.ts';
import type { Feed } from '../feed/feed.ts';
import type { ListedLifecycle } from '../feed/query.ts';
import { spanned, type Translate, translator } from '../i18n/i18n.ts';
import type { Series, Substage } from '../protocol/types.ts';
import {
  guardResult,
  isForfeit,
  matchup,
  orderedParticipants,
  type SeriesLabels,
  teamName,
} from './format.ts';
import { ordinal } from './outcome.ts';
import type { Span, Text } from './reply.ts';
import type { SpoilerPolicy } from './settings.ts';

/** How many finished series make a team's form. */
/** What a preview reads (form marks, stakes, deciding rounds) is shared by every reader: English for now. */
const ENGLISH = translator('en');
/** How `previewLines` writes: a reminder's compact lines or `/series`' full ones, in the reader's language. */
type LineOptions = { compact: boolean; t: Translate };
const FORM_LENGTH = 5;

const FINISHED: ListedLifecycle[] = ['over', 'over-forfeited'];
const ROUND_ROBIN = 1;
const BRACKET = 2;
const LOBBY = 3;

/** Where a preview reads: each answers from the feed when it holds the answer, else the service. */
interface PreviewReads {
  /** Finished series of any of these rosters, newest end first. */
  recent(rosters: readonly number[], take: number): Promise<Series[]>;
  /** Finished series between one of `a`'s rosters and one of `b`'s, newest end first. */
  between(a: readonly number[], b: readonly number[], take: number): Promise<Series[]>;
  /** Every series of a substage. */
  substageSeries(id: number): Promise<Series[]>;
  substage(id: number): Promise<Substage | undefined>;
}

/** What the preview needs to name teams and find a team's other rosters. */
export interface PreviewLabels extends SeriesLabels {
  /** The team a roster belongs to, as the name index knows it. */
  roster(rosterId: number): { team: number } | undefined;
  rostersOfTeam(teamId: number): number[];
}

/** One finished series seen from one team. */
interface FormEntry {
  series: Series;
  /** 'W', 'L', or for a lobby the place ("3rd/16"). */
  mark: string;
  /** "2–1 Nova Krakens", "forfeit vs Nova Krakens", "16-team lobby". */
  detail: string;
}

interface PreviewSide {
  /** The roster playing, undefined while the slot is TBD. */
  roster?: number;
  name: string;
  /** Newest first; empty when the team has no finished series on record. */
  form: FormEntry[];
  /** For a TBD slot: the series that decides it ("winner of A vs B"). */
  decidedBy?: string;
}

export interface Preview {
  sides: PreviewSide[];
  /** Read with `results: false`: form and head-to-head were not read (a `hide` reader). */
  resultsUnread?: true;
  /** Both teams known: their meetings on record (wins per side, newest first). */
  headToHead?: { wins: [number, number]; series: Series[] };
  /** "winner to the upper-bracket final", "loser is eliminated", "top 4 advance to Playoffs". */
  stakes: string[];
  /** A bracket series' stage and round: "Playoffs · upper-bracket round 1". */
  stage?: string;
}

/** Reads for a preview from the feed where it holds the answer, else from `data` (one request each). */
export function previewReads(
  data: Pick<EsportsClient, 'series' | 'substages'>,
  feed?: Feed,
  onRead?: () => void,
): PreviewReads {
  const fromFeed = (rosters: readonly number[], take: number): Series[] | undefined => {
    const answer = feed?.series({ rosters, lifecycles: FINISHED, order: 'end-desc', take });
    return answer?.complete ? answer.series : undefined;
  };
  return {
    async recent(rosters, take) {
      if (rosters.length === 0) return [];
      const held = fromFeed(rosters, take);
      if (held) return held;
      onRead?.();
      return visible(
        await data.series.list({
          filter: [
            ['participants.roster.id', '^', [...rosters]],
            ['lifecycle', '<=', FINISHED],
          ],
          order: 'end-desc',
          take,
        }),
      );
    },
    async between(a, b, take) {
      if (a.length === 0 || b.length === 0) return [];
      const meets = (s: Series) =>
        s.participants.some((p) => a.includes(p.roster.id)) &&
        s.participants.some((p) => b.includes(p.roster.id));
      // The feed's answer for one side holds every meeting when it is complete to the end.
      const held = fromFeed(a, 50);
      if (held && held.length < 50) return held.filter(meets).slice(0, take);
      onRead?.();
      return visible(await listMeetings(data.series, a, b, take, onRead))
        .filter(meets)
        .slice(0, take);
    },
    async substageSeries(id) {
      const held = feed?.series({
        substage: id,
        lifecycles: ['upcoming', 'live', 'over', 'over-forfeited'],
        order: 'start-asc',
        take: 50,
      });
      if (held?.complete) return held.series;
      onRead?.();
      return visible(await data.substages.series(id, { order: 'start-asc', take: 50 }));
    },
    async substage(id) {
      const held = feed?.substage(id);
      if (held) return held;
      onRead?.();
      return data.substages.get(id);
    },
  };
}

/** The series not deleted. */
function visible(list: Series[]): Series[] {
  return list.filter((s) => s.deleted_at === null && s.lifecycle !== 'deleted');
}

/**
 * The finished series between rosters `a` and `b`, newest first, from the service. Where the
 * interface cannot select head-to-heads (v2), the first side's last 50 series (a second read).
 */
function listMeetings(
  series: EsportsClient['series'],
  a: readonly number[],
  b: readonly number[],
  take: number,
  onRead?: () => void,
): Promise<Series[]> {
  // Spec, filter language 8: two `^` conditions on the participants select head-to-heads.
  return series
    .list({
      filter: [
        ['participants.roster.id', '^', [...a]],
        ['participants.roster.id', '^', [...b]],
        ['lifecycle', '<=', FINISHED],
      ],
      order: 'end-desc',
      take,
    })
    .catch(async (error: unknown) => {
      // An interface without it (v2): the meetings among the first side's last 50 series.
      if (!(error instanceof InvalidQueryError)) throw error;
      onRead?.();
      return series.list({
        filter: [
          ['participants.roster.id', '^', [...a]],
          ['lifecycle', '<=', FINISHED],
        ],
        order: 'end-desc',
        take: 50,
      });
    });
}

/** Every roster of the team `rosterId` belongs to (a team's earlier lineups count as the team). */
function teamRostersOf(labels: PreviewLabels, rosterId: number): number[] {
  const team = labels.roster(rosterId)?.team;
  const all = team !== undefined ? labels.rostersOfTeam(team) : [];
  return all.includes(rosterId) ? all : [rosterId, ...all];
}

/** One finished series from the side of `rosters`. */
function formEntry(series: Series, rosters: readonly number[], labels: SeriesLabels): FormEntry {
  const own = series.participants.find((p) => rosters.includes(p.roster.id));
  if (series.participants.length > 2) {
    const ranked = [...series.participants].sort((a, b) => b.score - a.score || a.seed - b.seed);
    const place = own ? ranked.indexOf(own) + 1 : 0;
    return {
      series,
      mark: `${ordinal(place, ENGLISH)}/${series.participants.length}`,
      detail: `${series.participants.length}-team lobby`,
    };
  }
  const other = series.participants.find((p) => p !== own);
  const opponent = other ? teamName(labels, other.roster.id) : 'TBD';
  const mark = own?.winner ? 'W' : 'L';
  if (isForfeit(series)) return { series, mark, detail: `forfeit vs ${opponent}` };
  return { series, mark, detail: `${own?.score ?? 0}–${other?.score ?? 0} ${opponent}` };
}

/**
 * Gathers a preview of `series`: two reads of form, one of head-to-head, and the substage and its
 * series for what is at stake (each from the feed when it holds it). With `results: false` (a
 * reader whose spoiler policy is `hide`) form and head-to-head are not read at all.
 */
export async function readPreview(
  series: Series,
  reads: PreviewReads,
  labels: PreviewLabels,
  /** Makes the teams of these series known to `labels` (opponents outside the name index). */
  ensureLabels: (series: Series[]) => Promise<void> = async () => {},
  options: { results: boolean } = { results: true },
): Promise<Preview> {
  const lobby = series.participants.length > 2;
  const [substage, stageSeries] = await Promise.all([
    reads.substage(series.substage.id).catch(() => undefined),
    series.bracket_position ? reads.substageSeries(series.substage.id) : Promise.resolve([] as Series[]),
  ]);
  const slots = lobby ? [] : slotsOf(series);
  const rostersOf = slots.map((p) => (p ? teamRostersOf(labels, p.roster.id) : undefined));
  const [finished, met] = await Promise.all([
    Promise.all(
      rostersOf.map(async (rosters) =>
        rosters && options.results
          ? (await reads.recent(rosters, FORM_LENGTH + 1))
              .filter((s) => s.id !== series.id)
              .slice(0, FORM_LENGTH)
          : [],
      ),
    ),
    rostersOf[0] && rostersOf[1] && options.results
      ? reads
          .between(rostersOf[0], rostersOf[1], 20)
          .then((list) => list.filter((s) => s.id !== series.id))
          // An interface that cannot select head-to-heads (v2): the preview says nothing of them.
          .catch(() => undefined)
      : Promise.resolve(undefined),
  ]);
  await ensureLabels([...finished.flat(), ...stageSeries]);
  // The stages a group sends its teams to, by title (read like the substage itself).
  const targets = [substage?.rules.advance?.substage, substage?.rules.descend?.substage].filter(
    (ref): ref is { id: number } => ref != null,
  );
  const titles = new Map<number, string>();
  await Promise.all(
    targets.map(async (ref) => {
      const title =
        labels.substage(ref.id)?.title ?? (await reads.substage(ref.id).catch(() => undefined))?.title;
      if (title) titles.set(ref.id, title);
    }),
  );
  const sides: PreviewSide[] = slots.map((participant, index) => {
    const rosters = rostersOf[index];
    if (!participant || !rosters) {
      const side: PreviewSide = { name: 'TBD', form: [] };
      const by = decidedBy(series, index, stageSeries, labels);
      if (by) side.decidedBy = by;
      return side;
    }
    return {
      roster: participant.roster.id,
      name: teamName(labels, participant.roster.id),
      form: (finished[index] ?? []).map((s) => formEntry(s, rosters, labels)),
    };
  });
  // What a finished series decided is its result, not a stake: said only before it is over.
  const over = series.lifecycle === 'over' || series.lifecycle === 'over-forfeited';
  const preview: Preview = { sides, stakes: over ? [] : stakesOf(series, substage, stageSeries, titles) };
  if (!options.results) preview.resultsUnread = true;
  const stage = stageName(series, substage, stageSeries, labels);
  if (stage) preview.stage = stage;
  if (met && rostersOf[0] && rostersOf[1]) {
    const wins: [number, number] = [0, 0];
    for (const s of met) {
      const winner = s.participants.find((p) => p.winner);
      if (winner && rostersOf[0].includes(winner.roster.id)) wins[0]++;
      else if (winner && rostersOf[1].includes(winner.roster.id)) wins[1]++;
    }
    preview.headToHead = { wins, series: met };
  }
  return preview;
}

/** The two slots in seed order; a slot whose team is not known yet is undefined. */
function slotsOf(series: Series): (Series['participants'][number] | undefined)[] {
  const ordered = orderedParticipants(series);
  if (ordered.length >= 2) return ordered.slice(0, 2);
  if (ordered.length === 1) return ordered[0]!.seed === 2 ? [undefined, ordered[0]] : [ordered[0], undefined];
  return [undefined, undefined];
}

/** A bracket part as the preview names its rounds. */
const PART_NAMES = { UB: 'upper-bracket', LB: 'lower-bracket' } as const;

/** "the grand final", "the upper-bracket final", "lower-bracket round 2". */
function roundName(series: Series, stageSeries: readonly Series[]): string | undefined {
  const position = series.bracket_position;
  if (!position) return undefined;
  if (position.part === 'GF') return 'the grand final';
  const cols = stageSeries
    .filter((s) => s.bracket_position?.part === position.part)
    .map((s) => s.bracket_position!.col);
  const first = Math.min(position.col, ...cols);
  const last = Math.max(position.col, ...cols);
  const part = PART_NAMES[position.part];
  if (position.col === last && last > first) return `the ${part} final`;
  return `${part} round ${position.col - first + 1}`;
}

/** A bracket series' stage and round as a fan reads it: "Playoffs · upper-bracket round 1". */
function stageName(
  series: Series,
  substage: Substage | undefined,
  stageSeries: readonly Series[],
  labels: SeriesLabels,
): string | undefined {
  // A group's name is on the card's first line already: the stage line is for a bracket's round.
  const round = roundName(series, stageSeries);
  if (!round) return undefined;
  const title = substage?.title ?? labels.substage(series.substage.id)?.title;
  return [title, round.replace(/^the /, '')].filter(Boolean).join(' · ');
}

/**
 * What the series decides. In a double-elimination bracket, the series its winner and its loser
 * move on to (the series whose `chain` holds this one: an upper-bracket series feeds the next
 * upper round with its winner and the lower bracket with its loser); the grand final decides the
 * champion. In a group or lobby, the stage's advance and descend rules.
 */
function stakesOf(
  series: Series,
  substage: Substage | undefined,
  stageSeries: readonly Series[],
  /** Titles of the stages a group's rules send teams to, by substage id. */
  titles: ReadonlyMap<number, string>,
): string[] {
  const position = series.bracket_position;
  if (position && (substage?.type ?? BRACKET) === BRACKET) {
    if (position.part === 'GF') return ['winner is the champion', 'loser finishes 2nd'];
    const next = stageSeries.filter((s) => s.chain.some((c) => c.id === series.id) && s.id !== series.id);
    const winnerTo = next.find((s) => s.bracket_position?.part !== 'LB' || position.part === 'LB');
    const loserTo = position.part === 'UB' ? next.find((s) => s.bracket_position?.part === 'LB') : undefined;
    const stakes: string[] = [];
    if (winnerTo) stakes.push(`winner to ${roundName(winnerTo, stageSeries)}`);
    stakes.push(loserTo ? `loser drops to ${roundName(loserTo, stageSeries)}` : 'loser is eliminated');
    return stakes;
  }
  if (!substage) return [];
  const stakes: string[] = [];
  const rules = substage.rules;
  const target = (ref: { id: number } | null) => (ref ? titles.get(ref.id) : undefined);
  if (rules.advance && rules.advance.number > 0) {
    const to = target(rules.advance.substage);
    stakes.push(`the top ${rules.advance.number} advance${to ? ` to ${to}` : ''}`);
  }
  if (rules.descend && rules.descend.number > 0) {
    const to = target(rules.descend.substage);
    stakes.push(`the next ${rules.descend.number} drop${to ? ` to ${to}` : ''}`);
  }
  if (stakes.length === 0 && (substage.type === ROUND_ROBIN || substage.type === LOBBY))
    stakes.push(substage.type === LOBBY ? 'points toward the lobby table' : 'points toward the group table');
  return stakes;
}

/** For a TBD slot: "winner of A vs B" (or "loser of ..."), from the series feeding it. */
function decidedBy(
  series: Series,
  slot: number,
  stageSeries: readonly Series[],
  labels: SeriesLabels,
): string | undefined {
  if (series.chain.length !== 2) return undefined;
  const feeder = stageSeries.find((s) => s.id === series.chain[slot]?.id);
  if (!feeder?.bracket_position || !series.bracket_position) return undefined;
  const loser = feeder.bracket_position.part === 'UB' && series.bracket_position.part === 'LB';
  const round = roundName(feeder, stageSeries)?.replace(/^the /, '');
  // Both of the feeder's teams unknown too: its round says more than "TBD vs TBD".
  const who = feeder.participants.length > 0 ? matchup(feeder, labels, ENGLISH) : undefined;
  const what = who ? `${who}${round ? ` (${round})` : ''}` : `the ${round ?? 'previous series'}`;
  return `${loser ? 'loser' : 'winner'} of ${what}`;
}

/** "W 2–1 Nova Krakens · L 0–2 Storm Owls". */
function formText(form: readonly FormEntry[]): string {
  return form.map((f) => `${f.mark} ${f.detail}`).join(' · ');
}

/** "WWLWL" or, for lobbies, "3rd/16 1st/16". */
function formMarks(form: readonly FormEntry[]): string {
  return form.every((f) => f.mark.length === 1)
    ? form.map((f) => f.mark).join('')
    : form.map((f) => f.mark).join(' ');
}

/**
 * The preview as lines. `compact` (a reminder): form in one line, head-to-head and what is at
 * stake in a second; otherwise a line per team's form with opponents and scores, then the
 * head-to-head with its last meeting, then the stage and what is at stake. Under `hide` (or a
 * preview read without results) form and head-to-head are not written at all: one line says so.
 */
export function previewLines(preview: Preview, policy: SpoilerPolicy, options: LineOptions): Text[] {
  const { t } = options;
  const known = preview.sides.filter((s) => s.roster !== undefined);
  const withheld = policy === 'hide' || preview.resultsUnread === true;
  const lines: Text[] = [];
  let h2hSpans: Text | undefined;
  if (withheld) {
    if (known.length > 0) lines.push([{ text: t('cards.preview.hidden'), italic: true }]);
  } else {
    lines.push(...formLines(known, policy, options));
    h2hSpans = headToHeadSpans(preview, known, policy, options.compact, t);
    if (h2hSpans && !options.compact) lines.push(h2hSpans);
  }
  const tbd = preview.sides
    .filter((s) => s.roster === undefined && s.decidedBy)
    .map((s) => `${t('cards.series.tbd')}: ${s.decidedBy}`);
  const atStake = preview.stakes.join('; ');
  const stakes = atStake ? t('cards.preview.stakes', { stakes: atStake }) : undefined;
  if (options.compact) {
    const second: Text = [];
    if (h2hSpans) second.push(...h2hSpans);
    if (stakes) second.push(second.length > 0 ? ' · ' : '', stakes);
    if (second.length > 0) lines.push(second.filter((s) => s !== ''));
    if (tbd.length > 0) lines.push([tbd.join(' · ')]);
    return lines;
  }
  if (preview.stage) lines.push([{ text: t('cards.preview.stage'), bold: true }, `: ${preview.stage}`]);
  if (stakes) lines.push([stakes]);
  for (const line of tbd) lines.push([line]);
  return lines;
}

/** Both teams' form under `show` or `spoiler`: one line (compact) or a line per team. */
function formLines(
  known: readonly PreviewSide[],
  policy: SpoilerPolicy,
  { compact, t }: LineOptions,
): Text[] {
  if (compact) {
    const none = t('cards.preview.noResults');
    const parts = known.map((s) => `${s.name} ${s.form.length > 0 ? formMarks(s.form) : none}`);
    const head = `${t('cards.preview.formLast', { count: FORM_LENGTH })} `;
    return parts.length > 0 ? [[head, ...guard(parts.join(' · '), policy, t)]] : [];
  }
  return known.map((side) => [
    { text: t('cards.preview.form', { team: side.name }), bold: true },
    ': ',
    ...(side.form.length > 0 ? guard(formText(side.form), policy, t) : [t('cards.preview.noSeries')]),
  ]);
}

/** "Head-to-head: A 2–1 B in 3 series · last met <date>" under `show` or `spoiler`. */
function headToHeadSpans(
  preview: Preview,
  known: readonly PreviewSide[],
  policy: SpoilerPolicy,
  compact: boolean,
  t: Translate,
): Text | undefined {
  const h2h = preview.headToHead;
  if (!h2h || known.length !== 2) return undefined;
  const [a, b] = known as [PreviewSide, PreviewSide];
  if (h2h.series.length === 0) return [`${t('cards.preview.h2h')} ${t('cards.preview.firstMeeting')}`];
  const last = h2h.series[0]!;
  const score = `${a.name} ${h2h.wins[0]}–${h2h.wins[1]} ${b.name}`;
  const record = t('cards.preview.record', { score, count: h2h.series.length });
  const spans: Text = [`${t('cards.preview.h2h')} `, ...guard(record, policy, t)];
  if (!compact) {
    const met: Span = { time: new Date(last.end ?? last.start ?? 0), style: 'date' };
    spans.push(' · ', ...spanned<Span>(t, 'cards.preview.lastMet', {}, { time: met }));
  }
  return spans;
}

function guard(text: string, policy: SpoilerPolicy, t: Translate): Text {
  return guardResult([text], policy, t);
}
