/**
 * A match preview (docs/commands.md, "Match preview"): what a fan wants to know before a series starts.
 * The recent form of both teams (their last five finished series, won or lost and against whom), their
 * head-to-head record, the stage and what is at stake there (derived from the bracket's `chain` and
 * `bracket_position`, or the group's advance rules: never invented), and, for a participant not known yet,
 * which series decides it. `/series series:<id>` shows it in full; the first reminder of a series carries
 * a compact form of it.
 *
 * Reading is separate from showing: `readPreview` gathers the facts through `PreviewReads` (the
 * feed first, else the service), `previewLines` turns them into lines under the spoiler policy.
 * Form and head-to-head are results: behind a spoiler, or replaced by one line saying they are
 * hidden; what is at stake is the bracket's structure and is always shown. Where the reader's
 * policy is `hide`, `readPreview` is told `results: false` and reads neither (no form, no
 * head-to-head read upstream), as `resultSpans` withholds a score rather than drawing it.
 */

import { spanned, type Translate, translator } from '../i18n/i18n.ts';
import type { Series } from '../protocol/types.ts';
import type { ListedLifecycle } from '../reads/query.ts';
import type { Reads } from '../reads/reads.ts';
import { guardResult, isForfeit, orderedParticipants, type SeriesLabels, teamName } from './format.ts';
import { ordinal } from './outcome.ts';
import {
  type DecidedBy,
  decidedBy,
  decidedByText,
  type StageRound,
  type Stake,
  stageRoundOf,
  stageText,
  stakesOf,
  stakeText,
} from './preview-stakes.ts';
import type { Span, Text } from './reply.ts';
import type { SpoilerPolicy } from './settings.ts';

/**
 * A preview is shared by every reader: it holds values, written in the reader's language by
 * `previewLines`. Only a feeding series' matchup is written when read, and a bracket series has
 * two slots, whose matchup is team names (the language writes only a lobby's).
 */
const MATCHUP = translator('en');
/** How `previewLines` writes: a reminder's compact lines or `/series`' full ones, in the reader's language. */
type LineOptions = { compact: boolean; t: Translate };
/** How many finished series make a team's form. */
const FORM_LENGTH = 5;

const FINISHED: ListedLifecycle[] = ['over', 'over-forfeited'];

/** What a preview reads, through the read model (src/reads/reads.ts). */
type PreviewReads = Pick<Reads, 'series' | 'between' | 'substageSeries' | 'substage'>;

/** What the preview needs to name teams and find a team's other rosters. */
export interface PreviewLabels extends SeriesLabels {
  /** The team a roster belongs to, as the name index knows it. */
  roster(rosterId: number): { team: number } | undefined;
  rostersOfTeam(teamId: number): number[];
}

/**
 * One finished series seen from one team: won or lost against an opponent ("W 2–1 Nova Krakens",
 * "L forfeit vs Nova Krakens"), or a lobby's place among its teams ("3rd/16 16-team lobby").
 */
type FormEntry = { series: Series } & (
  | { won: boolean; score: [number, number]; opponent?: string; forfeit: boolean }
  | { place: number; teams: number }
);

interface PreviewSide {
  /** The roster playing, undefined while the slot is TBD. */
  roster?: number;
  name: string;
  /** Newest first; empty when the team has no finished series on record. */
  form: FormEntry[];
  /** For a TBD slot: the series that decides it ("winner of A vs B"). */
  decidedBy?: DecidedBy;
}

export interface Preview {
  sides: PreviewSide[];
  /** Read with `results: false`: form and head-to-head were not read (a `hide` reader). */
  resultsUnread?: true;
  /** Both teams known: their meetings on record (wins per side, newest first). */
  headToHead?: { wins: [number, number]; series: Series[] };
  /** "winner to the upper-bracket final", "loser is eliminated", "top 4 advance to Playoffs". */
  stakes: Stake[];
  /** A bracket series' stage and round: "Playoffs · upper-bracket round 1". */
  stage?: StageRound;
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
    return { series, place, teams: series.participants.length };
  }
  const other = series.participants.find((p) => p !== own);
  const entry: FormEntry = {
    series,
    won: own?.winner === true,
    score: [own?.score ?? 0, other?.score ?? 0],
    forfeit: isForfeit(series),
  };
  if (other) entry.opponent = teamName(labels, other.roster.id);
  return entry;
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
          ? (await reads.series({ rosters, lifecycles: FINISHED, order: 'end-desc', take: FORM_LENGTH + 1 }))
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
      const by = decidedBy(series, index, stageSeries, labels, MATCHUP);
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
  const stage = stageRoundOf(series, substage, stageSeries, labels);
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

/** "W", "L" (German S/N, Portuguese V/D), or a lobby's place "3rd/16". */
function formMark(f: FormEntry, t: Translate): string {
  if ('place' in f) return `${ordinal(f.place, t)}/${t.number(f.teams)}`;
  return f.won ? t('cards.preview.won') : t('cards.preview.lost');
}

/** "2–1 Nova Krakens", "forfeit vs Nova Krakens", "16-team lobby". */
function formDetail(f: FormEntry, t: Translate): string {
  if ('place' in f) return t('cards.preview.lobby', { count: f.teams });
  const opponent = f.opponent ?? t('cards.series.tbd');
  if (f.forfeit) return t('cards.preview.forfeitVs', { team: opponent });
  return `${t.number(f.score[0])}–${t.number(f.score[1])} ${opponent}`;
}

/** "W 2–1 Nova Krakens · L 0–2 Storm Owls". */
function formText(form: readonly FormEntry[], t: Translate): string {
  return form.map((f) => `${formMark(f, t)} ${formDetail(f, t)}`).join(' · ');
}

/** "WWLWL" or, for lobbies, "3rd/16 1st/16". */
function formMarks(form: readonly FormEntry[], t: Translate): string {
  return form.every((f) => !('place' in f))
    ? form.map((f) => formMark(f, t)).join('')
    : form.map((f) => formMark(f, t)).join(' ');
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
    .map((s) => `${t('cards.series.tbd')}: ${decidedByText(s.decidedBy!, t)}`);
  const atStake = preview.stakes.map((stake) => stakeText(stake, t)).join('; ');
  const stakes = atStake ? t('cards.preview.stakes', { stakes: atStake }) : undefined;
  if (options.compact) {
    const second: Text = [];
    if (h2hSpans) second.push(...h2hSpans);
    if (stakes) second.push(second.length > 0 ? ' · ' : '', stakes);
    if (second.length > 0) lines.push(second.filter((s) => s !== ''));
    if (tbd.length > 0) lines.push([tbd.join(' · ')]);
    return lines;
  }
  if (preview.stage)
    lines.push([{ text: t('cards.preview.stage'), bold: true }, `: ${stageText(preview.stage, t)}`]);
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
    const parts = known.map((s) => `${s.name} ${s.form.length > 0 ? formMarks(s.form, t) : none}`);
    const head = `${t('cards.preview.formLast', { count: FORM_LENGTH })} `;
    return parts.length > 0 ? [[head, ...guard(parts.join(' · '), policy, t)]] : [];
  }
  return known.map((side) => [
    { text: t('cards.preview.form', { team: side.name }), bold: true },
    ': ',
    ...(side.form.length > 0 ? guard(formText(side.form, t), policy, t) : [t('cards.preview.noSeries')]),
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
