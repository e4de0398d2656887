/**
 * A person's calendar as iCalendar text (RFC 5545), built with ical-generator from series the
 * service gave. Pure: no I/O, no clock (the instant comes in), so the same world gives the same
 * calendar.
 *
 * What keeps a subscribed calendar correct as series move (RFC 5545 3.8.4.7 and 3.8.7.4):
 * - UID is the series id (`series-<id>@matchday`): a moved series is the same event, moved.
 * - SEQUENCE is the series' `resource_version` less one: the service raises it on every change of
 *   the series (its start, a postponement, a cancellation, a revealed participant), so it only
 *   goes up and is the same after a restart or on another instance.
 * - A deleted series stays in the feed with STATUS:CANCELLED, so calendars remove or strike it.
 * Titles name the teams, the game and the tournament, never a score or a winner (spoiler-safe).
 */
import ical, { ICalAlarmType, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { gameTag, isLobby, matchup, type SeriesLabels, tournamentName } from '../bot/format.ts';
import { watchUrl } from '../bot/format-streams.ts';
import { formatInstant, zoneName } from '../bot/time-format.ts';
import type { Translate } from '../i18n/i18n.ts';
import type { Caster, Series } from '../protocol/types.ts';

/** How long a series without an end is shown: an hour per possible map. */
const HOUR = 3600_000;
/** Calendar apps are asked to poll this often (seconds). */
export const REFRESH_SECONDS = 3600;

export interface CalendarInput {
  /** The calendar's name in the app, e.g. "Matchday: my teams". */
  name: string;
  series: readonly Series[];
  labels: SeriesLabels;
  /** The primary stream of a series (its first caster, primary first), when known. */
  streamOf: (series: Series) => Caster | undefined;
  /** Reminder minutes before the start (VALARMs). */
  leads: readonly number[];
  /** The person's zone (X-WR-TIMEZONE, and the first planned time of a moved series; events are in UTC). */
  timezone: string;
  /** The language of the calendar's words (the person's, or the server's). */
  t: Translate;
  /** Is this roster a followed team's? Those are named first in a lobby's title ("Followed, A, B and 13 more"). */
  followed?: (rosterId: number) => boolean;
  /** When the calendar was made (DTSTAMP). */
  now: Date;
}

/** The iCalendar text of the series. */
export function calendarIcs(input: CalendarInput): string {
  const calendar = ical({
    name: input.name,
    prodId: { company: 'matchday', product: 'matchday', language: input.t.locale.toUpperCase() },
    method: ICalCalendarMethod.PUBLISH,
    ttl: REFRESH_SECONDS,
    // A display hint only: ical-generator's own `timezone` would write floating local times.
    x: [['X-WR-TIMEZONE', input.timezone]],
  });
  for (const series of input.series) {
    if (series.start === null) continue;
    const start = new Date(series.start);
    const end = series.end ? new Date(series.end) : new Date(start.getTime() + series.best_of * HOUR);
    const cancelled = series.lifecycle === 'deleted' || series.deleted_at !== null;
    const tag = gameTag(input.labels, series.game.id);
    const title = `${matchup(followedFirst(series, input), input.labels, input.t)}${tag ? ` (${tag})` : ''}`;
    const stream = input.streamOf(series);
    // The platform's page for the channel, else the caster's own http(s) link (as /casters links it).
    const url = stream ? watchUrl(stream) : undefined;
    const event = calendar.createEvent({
      id: `series-${series.id}@matchday`,
      sequence: Math.max(0, series.resource_version - 1),
      stamp: input.now,
      start,
      end,
      summary: cancelled ? input.t('cards.calendar.cancelledTitle', { title }) : title,
      description: describe(series, input, stream, url),
      status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      ...(url ? { url } : {}),
    });
    // No reminder for what is cancelled or already began.
    if (cancelled || start.getTime() <= input.now.getTime()) continue;
    for (const lead of input.leads) {
      event.createAlarm({
        type: ICalAlarmType.display,
        trigger: lead * 60,
        description: input.t('cards.calendar.startsIn', {
          title,
          lead: lead >= 60 && lead % 60 === 0 ? `${lead / 60} h` : `${lead} min`,
        }),
      });
    }
  }
  return calendar.toString();
}

/**
 * A lobby (more than two teams, named three at most) with the followed teams first, so its title
 * says why it is in the calendar; a two-team series as it is.
 */
function followedFirst(series: Series, input: CalendarInput): Series {
  const followed = input.followed;
  if (!followed || !isLobby(series)) return series;
  const ordered = [...series.participants].sort(
    (a, b) => Number(followed(b.roster.id)) - Number(followed(a.roster.id)) || a.seed - b.seed,
  );
  // matchup lists by seed: the order above becomes the seeds of this copy (the title only).
  return { ...series, participants: ordered.map((p, i) => ({ ...p, seed: i + 1 })) };
}

/** The description: tournament and stage, format, stream, a move or cancellation; never a result. */
function describe(
  series: Series,
  input: Pick<CalendarInput, 'labels' | 'timezone' | 'now' | 't'>,
  stream: Caster | undefined,
  url: string | undefined,
): string {
  const { labels, t } = input;
  const lines: string[] = [];
  const stage = labels.substage(series.substage.id)?.title;
  lines.push(`${tournamentName(labels, series.tournament.id, t)}${stage ? ` · ${stage}` : ''}`);
  const game = labels.game(series.game.id)?.title;
  lines.push(
    [
      game,
      t('cards.calendar.bestOf', { count: series.best_of }),
      t('cards.calendar.tier', { tier: series.tier }),
    ]
      .filter(Boolean)
      .join(' · '),
  );
  if (series.lifecycle === 'deleted' || series.deleted_at !== null) lines.push(t('cards.calendar.cancelled'));
  else if (series.postponed_from) {
    // In the calendar's zone, in the house style: "Wed 25 Nov 2026, 19:30 (Europe/Berlin)".
    const first = formatInstant(new Date(series.postponed_from), 'full', input.timezone, input.now, t);
    lines.push(t('cards.calendar.moved', { when: first, zone: zoneName(input.timezone) }));
  }
  if (stream)
    lines.push(
      `${t('cards.calendar.watch', { name: stream.display_name, platform: stream.stream.platform.name })}${url ? `, ${url}` : ''}`,
    );
  return lines.join('\n');
}
