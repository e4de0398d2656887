/**
 * `/tournament`: dates, tier, prize pool, location, stages and their substages, participants, and
 * once it is over its outcome (champion and placements, prize by place; src/bot/outcome.ts). The
 * tournament comes from the name index when it holds it; requests: its stages (1, substages
 * embedded) and participants (1), and for a finished tournament its last playoff substage's
 * series (1).
 */

import { defineCommand } from '../src/bot/command.ts';
import { teamName } from '../src/bot/format.ts';
import type { NameIndex } from '../src/bot/names.ts';
import { finalSubstage, outcomeLines, type Placement, readPlacements } from '../src/bot/outcome.ts';
import type { Card, Field, Text } from '../src/bot/reply.ts';
import { COLOURS } from '../src/bot/reply.ts';
import type { SpoilerPolicy } from '../src/bot/settings.ts';
import { cmd, UserError } from '../src/core/errors.ts';
import { localMoney, spanned, type Translate } from '../src/i18n/i18n.ts';
import type { Stage, Tournament, TournamentParticipants } from '../src/protocol/types.ts';
import { isNotFound, placeName, resolveName, scopeOf, unlessBusy } from './shared.ts';

const PHASES = ['qualifier', 'regular', 'final', 'other'] as const;
/** Field values are capped at 1024 characters on Discord; long lists are cut with a count. */
const MAX_FIELD = 900;

export default defineCommand({
  name: 'tournament',
  description: 'A tournament: dates, tier, prize pool, stages and participants',
  usesService: true,
  options: {
    tournament: {
      type: 'string',
      description: 'Tournament',
      required: true,
      autocomplete: 'tournament',
      max: 100,
    },
  },
  async run(ctx) {
    const { data, names } = ctx;
    const text = ctx.args.tournament;
    const t = ctx.t;
    if (!text)
      throw new UserError(
        'EMPTY_NAME',
        spanned(t, 'commands.tournament.emptyName', {}, { command: cmd('tournament tournament:Major') }),
      );
    const id = await resolveName(ctx, 'tournament', text, scopeOf(ctx));
    let tournament: Tournament;
    let stages: Stage[] | undefined;
    let participants: TournamentParticipants | undefined;
    try {
      // The tournament itself is needed; the card stands without its stages and participants
      // while the service is busy or down, and says so (`unlessBusy`).
      [tournament, stages, participants] = await Promise.all([
        names.tournament(id) ?? data.tournaments.get(id),
        unlessBusy(ctx, data.tournaments.stages(id, { order: 'order-asc', take: 50 })),
        unlessBusy(ctx, data.tournaments.participants(id)),
      ]);
    } catch (error) {
      if (isNotFound(error)) throw new UserError('UNKNOWN_TOURNAMENT', t('commands.tournament.gone'));
      throw error;
    }
    const rosterIds = participants ? participantRosters(participants) : [];
    // The outcome, once the tournament is over: its last playoff substage decides the places.
    let placements: Placement[] | null = null;
    const final = stages && finalSubstage(stages);
    if (final && Date.parse(tournament.end) <= ctx.now.getTime())
      placements = (await unlessBusy(ctx, readPlacements(data, tournament, final)))?.placements ?? null;
    for (const p of placements ?? []) rosterIds.push(...p.rosters);
    await unlessBusy(ctx, names.ensureRosters(data, rosterIds));
    const card = tournamentCard(t, tournament, stages, participants, names);
    if (placements) addOutcome(card, placements, names, ctx.tenant.settings.spoilers, ctx.t);
    return { cards: [card] };
  },
});

/** Every roster entered in the tournament, confirmed or in a phase, once each. */
function participantRosters(participants: TournamentParticipants): number[] {
  return [
    ...new Set([
      ...participants.confirmed_participants.map((p) => p.roster.id),
      ...PHASES.flatMap((phase) => (participants.phase_participants[phase] ?? []).map((p) => p.roster.id)),
    ]),
  ];
}

/** The outcome, in the card's description under the dates (`outcomeLines`). */
export function addOutcome(
  card: Card,
  placements: readonly Placement[],
  names: NameIndex,
  policy: SpoilerPolicy,
  t: Translate,
): void {
  card.description = [...(card.description ?? []), ...outcomeLines(placements, names, policy, t)];
}

/** The tournament card. Participants are public before results, so no spoiler policy applies. */
export function tournamentCard(
  t: Translate,
  tournament: Tournament,
  stages: readonly Stage[] | undefined,
  participants: TournamentParticipants | undefined,
  names: NameIndex,
): Card {
  const game = names.game(tournament.game.id);
  const description: Text[] = [];
  const blurb = tournament.copy.short_description || tournament.copy.general_description;
  if (blurb) description.push([blurb.slice(0, 600)]);
  description.push([
    { time: new Date(tournament.start), style: 'date' },
    ' – ',
    { time: new Date(tournament.end), style: 'date' },
  ]);
  const fields: Field[] = [
    {
      name: t('commands.team.game'),
      value: [game?.title ?? t('commands.team.gameId', { id: tournament.game.id })],
      inline: true,
    },
    { name: t('commands.tournament.tier'), value: [String(tournament.tier)], inline: true },
  ];
  // Money as the reader writes it (125.000 $ in German), where the data gives a plain amount.
  const pool = tournament.string_prize_pool;
  const local = (text: string | null) => (text ? localMoney(t.locale, text) : text);
  const prize = {
    total: local(pool.total),
    first: local(pool.first),
    second: local(pool.second),
    third: local(pool.third),
  };
  if (prize.total) {
    const places = [
      prize.first && t('commands.tournament.first', { prize: prize.first }),
      prize.second && t('commands.tournament.second', { prize: prize.second }),
      prize.third && t('commands.tournament.third', { prize: prize.third }),
    ]
      .filter(Boolean)
      .join(', ');
    fields.push({
      name: t('commands.tournament.prizePool'),
      value: [places ? `${prize.total} (${places})` : prize.total],
      inline: true,
    });
  }
  if (tournament.location.host) {
    fields.push({
      name: t('commands.tournament.location'),
      value: [placeName(tournament.location.host.name, tournament.location.host.country.name, ', ', '')],
      inline: true,
    });
  }
  fields.push(...stageFields(t, stages), participantsField(t, participants, names));
  const card: Card = {
    title: tournament.title,
    colour: COLOURS.info,
    description,
    fields,
    footer: t('commands.tournament.footer', { id: tournament.id }),
  };
  const links = [
    tournament.links.website && { label: t('commands.tournament.website'), url: tournament.links.website },
    tournament.links.wiki && { label: 'Wiki', url: tournament.links.wiki },
  ].filter(
    (l): l is { label: string; url: string } => Boolean(l) && /^https?:\/\//.test((l as { url: string }).url),
  );
  if (links.length > 0) card.buttons = links;
  return card;
}

/** One field per stage, its substages on one line (single-line values render alike everywhere). */
function stageFields(t: Translate, stages: readonly Stage[] | undefined): Field[] {
  const name = t('commands.tournament.stages');
  if (!stages) return [{ name, value: [t('commands.shared.notRead')] }];
  const liveStages = [...stages].filter((s) => s.deleted_at === null).sort((a, b) => a.order - b.order);
  if (liveStages.length === 0) return [{ name, value: [t('commands.tournament.noStages')] }];
  return liveStages.slice(0, 10).map((stage) => {
    const subs = [...stage.substages]
      .filter((s) => s.deleted_at === null)
      .sort((a, b) => a.order - b.order)
      .map(
        (s) =>
          `${s.title} (${t(`commands.tournament.${s.type === 2 ? 'bracket' : s.type === 3 ? 'lobbies' : 'groups'}`)}${s.default_series_format.best_of > 0 ? `, Bo${s.default_series_format.best_of}` : ''})`,
      );
    return {
      name: t('commands.tournament.stage', { title: stage.title }),
      value: [capList(t, subs, ', ') || t('commands.tournament.noGroups')],
    };
  });
}

/** The confirmed participants by name, or that they could not be read. */
function participantsField(
  t: Translate,
  participants: TournamentParticipants | undefined,
  names: NameIndex,
): Field {
  if (!participants)
    return { name: t('commands.tournament.participants'), value: [t('commands.shared.notRead')] };
  const confirmed = participants.confirmed_participants
    .map((p) => teamName(names, p.roster.id))
    .sort((a, b) => a.localeCompare(b));
  return {
    name: `${t('commands.tournament.participants')} (${t.number(confirmed.length)})`,
    value: [capList(t, confirmed, ', ') || t('commands.tournament.noneConfirmed')],
  };
}

/** Joins items up to MAX_FIELD characters, then "and N more". */
function capList(t: Translate, items: readonly string[], separator: string): string {
  let out = '';
  for (let i = 0; i < items.length; i++) {
    const next = out === '' ? items[i]! : `${out}${separator}${items[i]}`;
    if (next.length > MAX_FIELD)
      return `${out}${separator}${t('commands.tournament.andMore', { count: items.length - i })}`;
    out = next;
  }
  return out;
}
