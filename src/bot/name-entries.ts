/**
 * The entries the name index offers and resolves, built from the records it holds: each source's
 * label ("Nova Krakens (SP)", "AC Lisbon Masters (AC, tier 1)", "A vs B · Event · LIVE") and the
 * keys a user may type for it. Pure functions: the index (names.ts) owns the records.
 */
import type { Game, Organisation, Player, Series, Substage, Team, Tournament } from '../protocol/types.ts';
import { clip, type Entry, MAX_CHOICE_NAME, type NameSource, nameKeys } from './name-match.ts';

/** The records the entries are built from, as the index holds them. */
export interface NameRecords {
  games: ReadonlyMap<number, Game>;
  teams: ReadonlyMap<number, Team>;
  tournaments: ReadonlyMap<number, Tournament>;
  substages: ReadonlyMap<number, Substage>;
  organisations: ReadonlyMap<number, Organisation>;
  series: ReadonlyMap<number, Series>;
  players: ReadonlyMap<number, Player>;
  /** The team of a roster, when both are known. */
  teamOfRoster(rosterId: number): Team | undefined;
}

/** The game's tag, or empty when the game is unknown (a made-up "game 7" reads like a map). */
function gameTag(records: NameRecords, gameId: number): string {
  const game = records.games.get(gameId);
  return game ? game.abbreviation.toUpperCase() : '';
}

/** "Nova Krakens (SP)": the name and, when known, the game (teams of different games share names). */
function teamLabel(records: NameRecords, t: Team): string {
  const tag = gameTag(records, t.game.id);
  return tag ? `${t.name} (${tag})` : t.name;
}

/** Every source's entries except players (`playerEntries`), at `now` (clock ms). */
export function buildEntries(records: NameRecords, now: number): Omit<Record<NameSource, Entry[]>, 'player'> {
  return {
    game: [...records.games.values()].map((g) => ({
      id: g.id,
      name: g.title,
      label: clip(`${g.title} (${g.abbreviation})`),
      keys: nameKeys(g.title, g.abbreviation, `${g.title} (${g.abbreviation})`),
      weight: 0,
    })),
    team: [...records.teams.values()].map((t) => ({
      id: t.id,
      name: t.name,
      label: clip(teamLabel(records, t)),
      keys: nameKeys(t.name, t.abbreviation, ...t.also_known_as, teamLabel(records, t)),
      game: t.game.id,
      weight: t.active ? 1 : 0,
    })),
    organisation: [...records.organisations.values()].map((o) => ({
      id: o.id,
      name: o.name,
      label: clip(o.name),
      keys: nameKeys(o.name),
      weight: 0,
    })),
    tournament: [...records.tournaments.values()].map((t) => tournamentEntry(records, t, now)),
    substage: [...records.substages.values()].map((s) => {
      const tournament = records.tournaments.get(s.tournament.id);
      const owner = tournament?.short_title || tournament?.title || `tournament ${s.tournament.id}`;
      return {
        id: s.id,
        name: s.title,
        label: clip(`${s.title} · ${owner}`),
        keys: nameKeys(s.title, `${owner} ${s.title}`, `${s.title} · ${owner}`),
        game: s.game.id,
        weight: 0,
      };
    }),
    series: distinctLabels([...records.series.values()].map((s) => seriesEntry(records, s))),
  };
}

/**
 * Series whose labels say the same (two live "TBD vs TBD · Event · LIVE" while their teams are not
 * known) get their id in the label, so each label Matchday offers names one series and is accepted.
 */
function distinctLabels(entries: Entry[]): Entry[] {
  const count = new Map<string, number>();
  for (const e of entries) count.set(e.label, (count.get(e.label) ?? 0) + 1);
  return entries.map((e) => {
    if ((count.get(e.label) ?? 0) < 2) return e;
    const suffix = ` · series ${e.id}`;
    const label = `${clip(e.label, MAX_CHOICE_NAME - suffix.length)}${suffix}`;
    return { ...e, label, keys: [...e.keys, ...nameKeys(label)] };
  });
}

/** A tournament: running ones first, then upcoming ones, then finished ones. */
function tournamentEntry(records: NameRecords, t: Tournament, now: number): Entry {
  const running = Date.parse(t.start) <= now && now <= Date.parse(t.end);
  const label = `${t.title} (${[gameTag(records, t.game.id), `tier ${t.tier}`].filter(Boolean).join(', ')})`;
  return {
    id: t.id,
    name: t.title,
    label: clip(label),
    keys: nameKeys(t.title, t.short_title, label),
    game: t.game.id,
    weight: running ? 2 : Date.parse(t.start) > now ? 1 : 0,
  };
}

/** A series: "A vs B · Event · LIVE" (or its start in UTC); live ones first, then upcoming ones. */
function seriesEntry(records: NameRecords, s: Series): Entry {
  const teams = s.participants.map((p) => records.teamOfRoster(p.roster.id)?.name ?? 'TBD');
  const tournament = records.tournaments.get(s.tournament.id);
  const when = s.start ? `${s.start.slice(0, 16).replace('T', ' ')} UTC` : 'time TBD';
  const head = teams.length > 0 ? teams.join(' vs ') : s.title;
  const state = s.lifecycle === 'live' ? 'LIVE' : when;
  const event = tournament?.short_title || tournament?.title || s.title;
  return {
    id: s.id,
    name: head,
    label: clip(`${head} · ${event} · ${state}`),
    // The label without its state still names the series once it went live (or its time moved).
    keys: nameKeys(
      head,
      s.title,
      tournament?.title,
      tournament?.short_title,
      ...teams,
      `${head} · ${event} · ${state}`,
      `${head} · ${event}`,
    ),
    game: s.game.id,
    weight: s.lifecycle === 'live' ? 2 : s.lifecycle === 'upcoming' ? 1 : 0,
  };
}

/**
 * "Zogalqu (Iron Pilots, SP)": a player's nick with the team and game that tell namesakes apart
 * (with the real name too when a former and a current player of one team share a nick).
 */
export function playerLabel(records: NameRecords, p: Player, withRealName = false): string {
  const team = p.teams.map((t) => records.teams.get(t.id)).find((t) => t !== undefined);
  const real = withRealName ? [p.first_name, p.last_name].filter(Boolean).join(' ') : '';
  const context = [real, team?.name, gameTag(records, p.game.id)].filter(Boolean).join(', ');
  return clip(context ? `${p.nick_name} (${context})` : p.nick_name);
}

/** The players' entries; keys are the nick, the real name and the label. */
export function playerEntries(records: NameRecords): Entry[] {
  const seen = new Map<string, number>();
  for (const p of records.players.values()) {
    const label = playerLabel(records, p);
    seen.set(label, (seen.get(label) ?? 0) + 1);
  }
  return [...records.players.values()].map((p) => {
    const base = playerLabel(records, p);
    const label = (seen.get(base) ?? 0) > 1 ? playerLabel(records, p, true) : base;
    const real = [p.first_name, p.last_name].filter(Boolean).join(' ');
    return {
      id: p.id,
      name: p.nick_name,
      label: clip(label),
      keys: nameKeys(p.nick_name, real, label),
      game: p.game.id,
      weight: p.active ? 1 : 0,
    };
  });
}
