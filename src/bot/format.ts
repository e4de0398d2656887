/**
 * Shared card builders and formatters: one way to show a series (a line, a card, a live card, a
 * day's schedule) for commands and notifications alike. Everything returns neutral spans and cards
 * (`reply.ts`); times stay instants and results follow the tenant's spoiler policy:
 * - `show`: in the clear, winner in bold;
 * - `spoiler`: wrapped in a spoiler span (nothing outside it hints at the winner);
 * - `hide`: withheld.
 * A live series' running score is live information and always shown; the final result of a
 * finished series follows the policy.
 */

import type { LiveSummary } from '../protocol/live-summary.ts';
import type { Caster, Match, Participant, Series, SeriesCasterEntry, Stream } from '../protocol/types.ts';
import type { Platform } from './command.ts';
import { liveNow } from './live-now.ts';
import type { Card, Field, Span, Table, Text } from './reply.ts';
import { COLOURS } from './reply.ts';
import type { SpoilerPolicy } from './settings.ts';

/** What the formatters need to name things; the name index (`names.ts`) provides all of it. */
export interface SeriesLabels {
  teamOfRoster(rosterId: number): { name: string; abbreviation: string } | undefined;
  tournament(id: number): { title: string; short_title: string } | undefined;
  substage(id: number): { title: string } | undefined;
  game(id: number): { title: string; abbreviation: string } | undefined;
}

export interface FormatOptions {
  spoilers: SpoilerPolicy;
}

/** A map's name by id, when the caller has one (e.g. from `/maps`). */
export type MapNames = (mapId: number) => string | undefined;

const FINISHED = new Set(['over', 'over-forfeited']);

export function isFinished(series: Pick<Series, 'lifecycle'>): boolean {
  return FINISHED.has(series.lifecycle);
}

/** Participants in seed order (home first), as the service lists them for head-to-heads. */
export function orderedParticipants(series: Pick<Series, 'participants'>): Participant[] {
  return [...series.participants].sort((a, b) => a.seed - b.seed);
}

/** A roster's team name, or a neutral stand-in when the roster is unknown (never an id soup). */
export function teamName(labels: SeriesLabels, rosterId: number): string {
  return labels.teamOfRoster(rosterId)?.name ?? 'TBD';
}

/** Lobbies (battle royale) have more than two participants: listed by name, not as "A vs B". */
export function isLobby(series: Pick<Series, 'participants'>): boolean {
  return series.participants.length > 2;
}

/** "A vs B"; for a lobby "A, B, C and 13 more"; the series title when participants are unknown. */
export function matchup(series: Pick<Series, 'participants' | 'title'>, labels: SeriesLabels): string {
  const names = orderedParticipants(series).map((p) => teamName(labels, p.roster.id));
  if (names.length === 0) return series.title || 'TBD vs TBD';
  if (names.length === 1)
    return orderedParticipants(series)[0]!.seed === 2 ? `TBD vs ${names[0]}` : `${names[0]} vs TBD`;
  if (names.length > 2) return `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
  return names.join(' vs ');
}

/** A lobby's leaders by score: "A 45, B 30, C 22". */
function lobbyLeaders(series: Series, labels: SeriesLabels, count = 3): string {
  return [...series.participants]
    .sort((a, b) => b.score - a.score || a.seed - b.seed)
    .slice(0, count)
    .map((p) => `${teamName(labels, p.roster.id)} ${p.score}`)
    .join(', ');
}

/** Tournament label: short title when there is one. */
export function tournamentName(labels: SeriesLabels, tournamentId: number): string {
  const t = labels.tournament(tournamentId);
  return t ? t.short_title || t.title : `Tournament ${tournamentId}`;
}

/**
 * A game's short tag ("CS2"), or an empty string when the labels lack the game: a made-up
 * "Game 7" would read like a map number next to "Bo3", so callers leave the tag out instead.
 */
export function gameTag(labels: SeriesLabels, gameId: number): string {
  const game = labels.game(gameId);
  return game ? game.abbreviation.toUpperCase() : '';
}

/** Joins the non-empty parts with " · ". */
function dotted(...parts: (string | undefined)[]): string {
  return parts.filter((p) => p !== undefined && p !== '').join(' · ');
}

/**
 * What a tenant is called on its platform, for replies that speak about "here": a Discord
 * server, a Slack workspace, the terminal's chat. `noun` fits "server default", `here` fits
 * "Only admins of this server".
 */
export function tenantPlace(platform: Platform): { noun: string; here: string } {
  if (platform === 'discord') return { noun: 'server', here: 'this server' };
  if (platform === 'slack') return { noun: 'workspace', here: 'this workspace' };
  return { noun: 'chat', here: 'this chat' };
}

/** Applies a spoiler policy to result spans. */
export function guardResult(spans: Text, policy: SpoilerPolicy): Text {
  if (policy === 'show') return spans;
  if (policy === 'spoiler') return [{ spoiler: spans }];
  return [{ text: 'result hidden', italic: true }];
}

/** The running score of a live (or any) series, shown in the clear: "A 1–0 B". */
export function liveScoreSpans(series: Series, labels: SeriesLabels): Text {
  if (isLobby(series))
    return [`${series.participants.length} teams · leading: ${lobbyLeaders(series, labels)}`];
  const [home, away] = orderedParticipants(series);
  if (!home || !away) return [matchup(series, labels)];
  return [
    { text: teamName(labels, home.roster.id), bold: true },
    ` ${home.score}–${away.score} `,
    { text: teamName(labels, away.roster.id), bold: true },
  ];
}

/** The winner's team name of a finished series, if there is one. */
export function winnerName(series: Series, labels: SeriesLabels): string | undefined {
  const winner = series.participants.find((p) => p.winner);
  return winner ? teamName(labels, winner.roster.id) : undefined;
}

/** Did a series (or match) end by forfeit: the lifecycle says so, or a participant forfeited? */
export function isForfeit(item: Pick<Series, 'lifecycle' | 'participants'>): boolean {
  return item.lifecycle === 'over-forfeited' || item.participants.some((p) => p.forfeit);
}

/**
 * What a forfeit says: who forfeited and who wins, never a score (no map was played; the score the
 * service awards the winner is not one a fan should read as maps won). "A forfeited, B win".
 */
export function forfeitVerdict(item: Pick<Series, 'participants'>, labels: SeriesLabels): string {
  const winner = item.participants.find((p) => p.winner);
  return [forfeited(item, labels), winner ? `${teamName(labels, winner.roster.id)} win` : '']
    .filter(Boolean)
    .join(', ');
}

/** "A forfeited" (the teams whose participant says so), or "forfeit" when the data names none. */
function forfeited(item: Pick<Series, 'participants'>, labels: SeriesLabels): string {
  const who = orderedParticipants(item)
    .filter((p) => p.forfeit)
    .map((p) => teamName(labels, p.roster.id));
  return who.length > 0 ? `${who.join(' and ')} forfeited` : 'forfeit';
}

/**
 * A finished series' result under the policy. `show`: "**A** 2–1 B" (winner bold); `spoiler`:
 * "A vs B" then a spoiler holding "2–1, A wins"; `hide`: "A vs B · result hidden". A forfeit
 * names who forfeited instead of a score: `show` "A (forfeited) vs **B**".
 */
export function resultSpans(series: Series, labels: SeriesLabels, policy: SpoilerPolicy): Text {
  if (isLobby(series)) {
    const head = `${series.participants.length}-team lobby `;
    return [head, ...guardResult([`top: ${lobbyLeaders(series, labels)}`], policy)];
  }
  const [home, away] = orderedParticipants(series);
  if (!home || !away) return [matchup(series, labels)];
  const homeName = teamName(labels, home.roster.id);
  const awayName = teamName(labels, away.roster.id);
  const winner = winnerName(series, labels);
  if (isForfeit(series)) {
    if (policy !== 'show')
      return [`${homeName} vs ${awayName} `, ...guardResult([forfeitVerdict(series, labels)], policy)];
    // "A (forfeited) vs **B**": who forfeited in place of a score, the winner in bold.
    const side = (p: Participant, name: string): Text => [
      p.winner ? { text: name, bold: true } : name,
      ...(p.forfeit ? [' (forfeited)'] : []),
    ];
    const spans = [...side(home, homeName), ' vs ', ...side(away, awayName)];
    return series.participants.some((p) => p.forfeit) ? spans : [...spans, ' (forfeit)'];
  }
  if (policy === 'show') {
    return [
      home.winner ? { text: homeName, bold: true } : homeName,
      ` ${home.score}–${away.score} `,
      away.winner ? { text: awayName, bold: true } : awayName,
    ];
  }
  const verdict = `${home.score}–${away.score}${winner ? `, ${winner} win` : ''}`;
  return [`${homeName} vs ${awayName} `, ...guardResult([verdict], policy)];
}

/** A single line about a series, for lists: when, who (and the score or result), where, format. */
export function seriesLine(
  series: Series,
  labels: SeriesLabels,
  options: FormatOptions & { showTournament?: boolean },
): Text {
  const tail: Text = [];
  if (options.showTournament !== false) tail.push(' · ', tournamentName(labels, series.tournament.id));
  tail.push(` · Bo${series.best_of || series.format.best_of}`);
  if (series.lifecycle === 'live') {
    return [{ text: 'LIVE', bold: true }, ' ', ...liveScoreSpans(series, labels), ...tail];
  }
  if (isFinished(series)) {
    const when: Span = series.start
      ? { time: new Date(series.end ?? series.start), style: 'date' }
      : 'date TBD';
    return [when, ' · ', ...resultSpans(series, labels, options.spoilers), ...tail];
  }
  const when: Text = series.start
    ? [
        { time: new Date(series.start), style: 'full' },
        ' (',
        { time: new Date(series.start), style: 'relative' },
        ')',
      ]
    : ['time TBD'];
  const postponed = series.postponed_from ? [' (postponed)'] : [];
  return [...when, ' · ', { text: matchup(series, labels), bold: true }, ...postponed, ...tail];
}

/** Colour by lifecycle. */
export function seriesColour(series: Pick<Series, 'lifecycle'>): number {
  if (series.lifecycle === 'live') return COLOURS.live;
  if (isFinished(series)) return COLOURS.finished;
  return COLOURS.upcoming;
}

/**
 * Orders streams for display: the primary caster first, then online before offline, then by
 * viewers. `entries` are the series' (or tournament's) caster entries carrying the `primary` flag.
 */
export function orderCasters(
  casters: readonly Caster[],
  entries: readonly SeriesCasterEntry[] = [],
): Caster[] {
  const primary = new Set(entries.filter((e) => e.primary).map((e) => e.caster.id));
  return [...casters]
    .filter((c) => c.deleted_at === null)
    .sort(
      (a, b) =>
        Number(primary.has(b.id)) - Number(primary.has(a.id)) ||
        Number(b.stream.online) - Number(a.stream.online) ||
        b.stream.viewer_count - a.stream.viewer_count ||
        a.id - b.id,
    );
}

/** A stream's watch URL, by platform name; undefined for platforms we cannot link. */
export function streamUrl(stream: Pick<Stream, 'username' | 'platform'>): string | undefined {
  const user = encodeURIComponent(stream.username);
  const platform = stream.platform.name.toLowerCase();
  if (platform.includes('twitch')) return `https://www.twitch.tv/${user}`;
  if (platform.includes('youtube')) return `https://www.youtube.com/@${user}`;
  if (platform.includes('kick')) return `https://kick.com/${user}`;
  if (platform.includes('trovo')) return `https://trovo.live/s/${user}`;
  if (platform.includes('facebook')) return `https://www.facebook.com/${user}/live`;
  return undefined;
}

/**
 * Where to watch a caster: the platform's page for the channel when the platform is one we can
 * link, else the URL the data has (http or https only), else nothing.
 */
export function watchUrl(caster: Pick<Caster, 'stream' | 'url'>): string | undefined {
  const known = streamUrl(caster.stream);
  if (known) return known;
  return caster.url && /^https?:\/\/[^\s]+$/i.test(caster.url) ? caster.url : undefined;
}

/** Is the series over (finished, forfeited or cancelled)? Its casters' streams show other things now. */
export function seriesOver(series: Pick<Series, 'lifecycle'>): boolean {
  return (
    series.lifecycle === 'over' || series.lifecycle === 'over-forfeited' || series.lifecycle === 'deleted'
  );
}

/**
 * One line per caster: name (primary), platform, language, online and viewers, link. For a series
 * that is over (`over`), the stream's state says nothing about it (the caster may be live on
 * another series): the line says the series is over instead of "online, N viewers".
 */
export function casterLine(
  caster: Caster,
  options: { primary: boolean; language?: string; over?: boolean },
): Text {
  const spans: Text = [{ text: caster.display_name, bold: true }];
  if (options.primary) spans.push(' (primary)');
  const url = watchUrl(caster);
  // No link to give: the channel's name on its platform, so a fan can still find it.
  spans.push(` · ${caster.stream.platform.name}${url ? '' : `: ${caster.stream.username}`}`);
  if (options.language) spans.push(` · ${options.language}`);
  spans.push(
    options.over
      ? ' · series over'
      : caster.stream.online
        ? ` · online, ${caster.stream.viewer_count.toLocaleString('en')} viewers`
        : ' · offline',
  );
  if (url) spans.push(' · ', { link: url, label: 'watch' });
  return spans;
}

/**
 * The series' broadcasts with their languages (the data gives each broadcast a language), official
 * ones first: "Broadcast · Main English Streamly (official) · English".
 */
export function broadcastLines(
  series: Pick<Series, 'broadcasters'>,
  languageName: (id: number) => string | undefined,
  max: number,
): Text[] {
  return [...(series.broadcasters ?? [])]
    .sort((a, b) => Number(b.official) - Number(a.official))
    .slice(0, max)
    .map((entry) => {
      const languages = [
        ...new Set(entry.broadcasts.map((b) => languageName(b.language.id)).filter(Boolean)),
      ];
      return [
        'Broadcast · ',
        { text: entry.broadcaster.name, bold: true },
        entry.official ? ' (official)' : '',
        languages.length > 0 ? ` · ${languages.join(', ')}` : '',
      ].filter((span) => span !== '');
    });
}

/** Link buttons for the top online streams (at most `max`). */
export function streamButtons(casters: readonly Caster[], max = 3): { label: string; url: string }[] {
  const buttons: { label: string; url: string }[] = [];
  for (const caster of casters) {
    const url = watchUrl(caster);
    if (!url || !caster.stream.online) continue;
    buttons.push({ label: `${caster.display_name} on ${caster.stream.platform.name}`.slice(0, 80), url });
    if (buttons.length >= max) break;
  }
  return buttons;
}

/**
 * Streams as fields, one per caster (primary first): name the caster, value the platform, online
 * state and viewers and a link. One line each, so every platform renders them alike.
 */
export function streamFields(
  series: Pick<Series, 'casters' | 'lifecycle'>,
  casters: readonly Caster[] | undefined,
  limit = 5,
): Field[] {
  if (!casters || casters.length === 0) return [];
  const primary = new Set(series.casters.filter((e) => e.primary).map((e) => e.caster.id));
  const ordered = orderCasters(casters, series.casters);
  const fields: Field[] = ordered.slice(0, limit).map((c) => {
    const [, ...rest] = casterLine(c, { primary: false, over: seriesOver(series) });
    // casterLine starts with the name and " · platform": the name goes to the field name.
    const value =
      rest.length > 0 && typeof rest[0] === 'string' ? [rest[0].replace(/^ · /, ''), ...rest.slice(1)] : rest;
    return { name: `Stream: ${c.display_name}${primary.has(c.id) ? ' (primary)' : ''}`, value, inline: true };
  });
  if (ordered.length > limit)
    fields.push({ name: 'More streams', value: [`${ordered.length - limit} more`], inline: true });
  return fields;
}

/**
 * One series as a card: matchup, tournament and substage, start time (absolute and relative), the
 * score while live, the result under the spoiler policy when finished, and streams (primary first)
 * when `casters` are given. For `/series`-style detail, reminders and result posts.
 */
export function seriesCard(
  series: Series,
  labels: SeriesLabels,
  options: FormatOptions & { casters?: readonly Caster[]; footer?: string },
): Card {
  const description: Text[] = [];
  const substage = labels.substage(series.substage.id);
  description.push([
    dotted(
      tournamentName(labels, series.tournament.id),
      substage?.title,
      gameTag(labels, series.game.id),
      `Bo${series.best_of || series.format.best_of}`,
      `tier ${series.tier}`,
    ),
  ]);
  if (series.lifecycle === 'live') {
    description.push([{ text: 'LIVE', bold: true }, ' · ', ...liveScoreSpans(series, labels)]);
  } else if (isFinished(series)) {
    description.push(['Result: ', ...resultSpans(series, labels, options.spoilers)]);
  }
  if (series.start) {
    const start = new Date(series.start);
    // A forfeited series never started: it was due then (said only where results are shown).
    const verb =
      series.lifecycle === 'upcoming' || series.lifecycle === 'unknown'
        ? 'Starts'
        : isForfeit(series) && options.spoilers === 'show'
          ? 'Was due'
          : 'Started';
    description.push([
      `${verb} `,
      { time: start, style: 'full' },
      ' (',
      { time: start, style: 'relative' },
      ')',
    ]);
  }
  if (series.postponed_from) {
    description.push(['Postponed from ', { time: new Date(series.postponed_from), style: 'full' }]);
  }
  const card: Card = {
    title: matchup(series, labels),
    colour: seriesColour(series),
    description,
  };
  const streams = streamFields(series, options.casters);
  if (streams.length > 0) card.fields = streams;
  const buttons =
    options.casters && !seriesOver(series)
      ? streamButtons(orderCasters(options.casters, series.casters))
      : [];
  if (buttons.length > 0) card.buttons = buttons;
  card.footer = options.footer ?? `Series ${series.id}`;
  return card;
}

/**
 * The live scoreline of a series: series score, the current map and, from its live summary, what
 * its game counts (`live-now.ts`: rounds, kills, goals, supply, places), earlier maps' results, and
 * streams (primary first). Used by `/live` and by the notifier's edited-in-place live cards, so
 * one match reads the same in both.
 */
export function liveCard(
  series: Series,
  labels: SeriesLabels,
  options: FormatOptions & {
    /** The series' matches (any order); the live one is "current". */
    matches?: readonly Match[];
    /** The live summary of the current match. */
    summary?: LiveSummary;
    /**
     * Show the summary's details (sides, economy, towers, gold, supply, a lobby's table) below the
     * "Now" line; false keeps the card to the line (an overview of several series). Default true.
     */
    detail?: boolean;
    casters?: readonly Caster[];
    mapName?: MapNames;
    /**
     * The current game's number when `matches` are not given (a caller within its request budget
     * derives it from the series' match refs and scores); used with `summary`.
     */
    currentOrder?: number;
    /** When this card was built; shown in the footer as "updated". */
    now?: Date;
  },
): Card {
  const [home, away] = orderedParticipants(series);
  const lobby = isLobby(series);
  const homeName = home ? teamName(labels, home.roster.id) : 'TBD';
  const awayName = away ? teamName(labels, away.roster.id) : 'TBD';
  const description: Text[] = [];
  description.push([
    dotted(
      tournamentName(labels, series.tournament.id),
      gameTag(labels, series.game.id),
      `Bo${series.best_of || series.format.best_of}`,
    ),
  ]);
  const finished = isFinished(series);
  if (series.lifecycle === 'live') {
    description.push(['Series: ', ...liveScoreSpans(series, labels)]);
  } else if (finished) {
    description.push(['Final: ', ...resultSpans(series, labels, options.spoilers)]);
  } else if (series.start) {
    description.push(['Starts ', { time: new Date(series.start), style: 'relative' }]);
  }
  const fields: Field[] = [];
  let lobbyTable: Table | undefined;
  const matches = [...(options.matches ?? [])].sort((a, b) => a.order - b.order);
  const current = matches.find((m) => m.lifecycle === 'live');
  const currentOrder = current?.order ?? (options.summary ? options.currentOrder : undefined);
  if (currentOrder !== undefined) {
    // A map whose name is not known (no match resource, or its name not read yet) is left out:
    // a made-up "Map 2" would read like a map's name.
    const map = current?.map ? options.mapName?.(current.map.id) : undefined;
    const value: Text = [];
    const extra: Field[] = [];
    if (options.summary) {
      const now = liveNow(options.summary, (rosterId) => teamName(labels, rosterId));
      value.push(now.line);
      if (options.detail !== false) {
        extra.push(...now.fields);
        lobbyTable = now.table;
      }
    } else if (current) {
      const ph = orderedParticipants(current);
      // Without a summary the match resource's score is all there is (a lobby's is its kills).
      if (lobby)
        value.push(
          `most kills: ${lobbyLeaders({ ...series, participants: current.participants } as Series, labels)}`,
        );
      else
        value.push(
          ph.length === 2 ? `${homeName} ${ph[0]!.score}–${ph[1]!.score} ${awayName}` : 'in progress',
        );
    }
    if (value.length > 0) fields.push({ name: dotted(`Now: game ${currentOrder}`, map), value }, ...extra);
  }
  // A forfeited series played no map: its matches (closed as forfeited) are not results to list.
  const played = isForfeit(series) ? [] : matches.filter((m) => isFinished(m));
  for (const m of played.slice(-10)) {
    const value: Text = [];
    const mp = orderedParticipants(m);
    const label = m.map ? options.mapName?.(m.map.id) : undefined;
    if (lobby) {
      const text = `top: ${lobbyLeaders({ ...series, participants: m.participants } as Series, labels)}`;
      value.push(...(finished ? guardResult([text], options.spoilers) : [text]));
    } else if (mp.length === 2) {
      const winner = mp.find((p) => p.winner);
      // A map forfeited within a played series: who forfeited, not a 0–0 "won".
      const text = isForfeit(m)
        ? forfeitVerdict(m, labels)
        : `${mp[0]!.score}–${mp[1]!.score}${winner ? ` ${teamName(labels, winner.roster.id)}` : ''}`;
      // Finished maps of a live series are live information; of a finished series, a result.
      value.push(...(finished ? guardResult([text], options.spoilers) : [text]));
    }
    fields.push({ name: dotted(`Game ${m.order}`, label), value, inline: true });
  }
  fields.push(...streamFields(series, options.casters, 3));
  const card: Card = {
    title: lobby ? matchup(series, labels) : `${homeName} vs ${awayName}`,
    colour: seriesColour(series),
    description,
  };
  if (fields.length > 0) card.fields = fields;
  if (lobbyTable) card.table = lobbyTable;
  const buttons =
    options.casters && !seriesOver(series)
      ? streamButtons(orderCasters(options.casters, series.casters))
      : [];
  if (buttons.length > 0) card.buttons = buttons;
  card.footer = `Series ${series.id}`;
  return card;
}

/** Most series lines that one card carries (Discord: 4096 characters of description). */
export const MAX_LINES_PER_CARD = 20;
/** Most cards in one reply (Discord: 10 embeds per message). */
export const MAX_CARDS = 10;

/**
 * A titled list of series, one line each. `empty` is said when there are none.
 */
export function seriesListCard(
  title: string,
  series: readonly Series[],
  labels: SeriesLabels,
  options: FormatOptions & { empty?: string; showTournament?: boolean; colour?: number; footer?: string },
): Card {
  const lines = series.slice(0, MAX_LINES_PER_CARD).map((s) => seriesLine(s, labels, options));
  const card: Card = {
    title,
    colour: options.colour ?? COLOURS.info,
    description: lines.length > 0 ? lines : [[options.empty ?? 'Nothing to show.']],
  };
  const more = series.length - lines.length;
  const footer = [options.footer, more > 0 ? `and ${more} more` : undefined].filter(Boolean).join(' · ');
  if (footer) card.footer = footer;
  return card;
}

/**
 * A day's series grouped by tournament, one card per tournament (when there are more tournaments
 * than `MAX_CARDS`, several share a card, each under a bold heading; what still does not fit is
 * counted in the last footer), each line with its start time as an instant (rendered in the
 * tenant's timezone by the platform). For `/schedule` and the daily digest.
 */
export function scheduleCards(
  series: readonly Series[],
  labels: SeriesLabels,
  options: FormatOptions & { title: string; empty?: string },
): Card[] {
  if (series.length === 0) {
    return [
      {
        title: options.title,
        colour: COLOURS.info,
        description: [[options.empty ?? 'No series on this day.']],
      },
    ];
  }
  const groups = new Map<number, Series[]>();
  for (const s of [...series].sort(byStart)) {
    const list = groups.get(s.tournament.id) ?? [];
    list.push(s);
    groups.set(s.tournament.id, list);
  }
  // Tournaments in order of their first series of the day.
  const ordered = [...groups.entries()];
  // More tournaments than cards (a busy page): several share a card, each under a bold heading.
  const share = ordered.length > MAX_CARDS;
  const cards: Card[] = [];
  const shown: number[] = [];
  for (const [tournamentId, list] of ordered) {
    const t = labels.tournament(tournamentId);
    const game = list[0] ? gameTag(labels, list[0].game.id) : '';
    const heading = `${t?.title ?? `Tournament ${tournamentId}`}${game ? ` (${game})` : ''}`;
    const lines = list.slice(0, MAX_LINES_PER_CARD).map((s) => scheduleLine(s, labels, options));
    const more =
      list.length > MAX_LINES_PER_CARD ? `and ${list.length - MAX_LINES_PER_CARD} more` : undefined;
    const last = cards[cards.length - 1];
    if (
      share &&
      last &&
      !last.footer &&
      !more &&
      last.description!.length + 2 + lines.length <= MAX_LINES_PER_CARD
    ) {
      last.description!.push([], [{ text: heading, bold: true }], ...lines);
    } else if (cards.length < MAX_CARDS) {
      cards.push({
        title: heading,
        colour: COLOURS.upcoming,
        description: lines,
        ...(more ? { footer: more } : {}),
      });
    } else break;
    shown.push(tournamentId);
  }
  const first = cards[0];
  if (first) first.title = `${options.title} · ${first.title}`;
  const hidden = ordered.slice(shown.length);
  if (hidden.length > 0) {
    const count = hidden.reduce((n, [, list]) => n + list.length, 0);
    const last = cards[cards.length - 1]!;
    last.footer = [last.footer, `and ${count} more series in ${hidden.length} more tournaments`]
      .filter(Boolean)
      .join(' · ');
  }
  return cards;
}

/** A schedule line: time of day, then who (and live score or result), format. */
export function scheduleLine(series: Series, labels: SeriesLabels, options: FormatOptions): Text {
  const when: Span = series.start ? { time: new Date(series.start), style: 'time' } : 'TBD';
  const tail = ` · Bo${series.best_of || series.format.best_of}`;
  if (series.lifecycle === 'live')
    return [when, ' · ', { text: 'LIVE', bold: true }, ' ', ...liveScoreSpans(series, labels), tail];
  if (isFinished(series)) return [when, ' · ', ...resultSpans(series, labels, options.spoilers), tail];
  return [when, ' · ', { text: matchup(series, labels), bold: true }, tail];
}

/** Start ascending, unknown starts last, ties by id. */
export function byStart(a: Pick<Series, 'start' | 'id'>, b: Pick<Series, 'start' | 'id'>): number {
  const sa = a.start ? Date.parse(a.start) : Number.POSITIVE_INFINITY;
  const sb = b.start ? Date.parse(b.start) : Number.POSITIVE_INFINITY;
  return sa - sb || a.id - b.id;
}
