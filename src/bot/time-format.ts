/**
 * The one date and time style of every reply, card and digest: what the
 * terminal prints, Slack's fallback text and tables, `/schedule`'s day titles and the digest's
 * dates all come from here, so a fan reads one style everywhere:
 * - a time of day on the 24-hour clock: `15:23`;
 * - a date: `Wed 18 Mar 2026`; a date and time: `Wed 18 Mar 2026, 15:23`;
 * - relative: `now`, `in 5 minutes`, `2 hours ago`, and by calendar day beyond a day:
 *   `tomorrow`, `yesterday`, `in 3 days`, `4 days ago` (the words `/schedule` takes);
 * - the zone is not repeated on every time: a reply names it once (`zoneName`).
 * Discord and Slack show their own native tags (`<t:...>`, `<!date^...>`) in each reader's zone
 * and language; only their text fallbacks use this style.
 */
import { DateTime } from 'luxon';
import { INTL_TAGS, type Translate, translator } from '../i18n/i18n.ts';
import type { TimeStyle } from './reply.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Without a reader (the calendar feed, Slack's fallback text): the English house style. */
const ENGLISH = translator('en');

const DATE = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' } as const;
const DATE_TIME = { ...DATE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;
const DAY = { weekday: 'short', day: 'numeric', month: 'short' } as const;

/** A date in the reader's language: English in the house style, other languages as `Intl` writes them. */
function dateText(dt: DateTime, t: Translate, withTime: boolean): string {
  if (t.locale === 'en') return dt.toFormat(withTime ? 'ccc d LLL yyyy, HH:mm' : 'ccc d LLL yyyy');
  return dt.setLocale(INTL_TAGS[t.locale]).toLocaleString(withTime ? DATE_TIME : DATE);
}

/** A day without its year: "Wed 18 Mar", "qua., 18 de mar.", "Mi., 18. März". */
function dayText(dt: DateTime, t: Translate): string {
  if (t.locale === 'en') return dt.toFormat('ccc d LLL');
  return dt.setLocale(INTL_TAGS[t.locale]).toLocaleString(DAY);
}

/**
 * An instant in `zone` in the house style (see above) and the reader's language; `now` anchors
 * relative times.
 */
export function formatInstant(
  time: Date,
  style: TimeStyle,
  zone: string,
  now: Date = new Date(),
  t: Translate = ENGLISH,
): string {
  const dt = DateTime.fromJSDate(time, { zone });
  if (!dt.isValid) return t('cards.time.unknown');
  switch (style) {
    case 'relative':
      return relative(dt, DateTime.fromJSDate(now, { zone }), t);
    case 'time':
      return dt.toFormat('HH:mm');
    case 'date':
      return dateText(dt, t, false);
    default:
      return dateText(dt, t, true);
  }
}

/**
 * "in 5 minutes", "2 hours ago", "tomorrow", "in 3 days" (as `Intl` says them in the reader's
 * language): minutes and hours within a day, then calendar days.
 */
function relative(dt: DateTime, now: DateTime, t: Translate): string {
  const words = new Intl.RelativeTimeFormat(INTL_TAGS[t.locale], { numeric: 'auto' });
  const diff = dt.toMillis() - now.toMillis();
  const sign = diff >= 0 ? 1 : -1;
  const abs = Math.abs(diff);
  if (abs < MINUTE) return words.format(0, 'second');
  if (abs < HOUR) {
    const n = Math.round(abs / MINUTE);
    return n >= 60 ? words.format(sign, 'hour') : words.format(sign * n, 'minute');
  }
  if (abs < 24 * HOUR) return words.format(sign * Math.round(abs / HOUR), 'hour');
  const days = Math.round(dt.startOf('day').diff(now.startOf('day'), 'days').days);
  if (days === 0) return t(sign > 0 ? 'cards.time.laterToday' : 'cards.time.earlierToday');
  return words.format(days, 'day');
}

/** A local calendar date (`2026-03-18`) in the house style: `Wed 18 Mar 2026`. */
export function formatLocalDate(isoDate: string, t: Translate): string {
  const dt = DateTime.fromISO(isoDate, { zone: 'UTC' });
  return dt.isValid ? dateText(dt, t, false) : isoDate;
}

/**
 * A day's title relative to today in the same zone: `Today, Wed 18 Mar`, `Tomorrow, Thu 19 Mar`,
 * `Yesterday, Tue 17 Mar`, else `Fri 20 Mar 2026`.
 */
export function dayTitle(day: DateTime, today: DateTime, t: Translate): string {
  const days = Math.round(day.startOf('day').diff(today.startOf('day'), 'days').days);
  const date = dayText(day, t);
  if (days === 0) return t('cards.time.today', { date });
  if (days === 1) return t('cards.time.tomorrow', { date });
  if (days === -1) return t('cards.time.yesterday', { date });
  return dateText(day, t, false);
}

/** How a reply names its zone, once: the IANA name (`Europe/Berlin`), or `UTC`. */
export function zoneName(zone: string): string {
  if (zone === 'Etc/UTC' || zone === 'UTC') return 'UTC';
  // IANA's fixed offsets have the sign inverted (Etc/GMT-2 is two hours ahead): shown as people write them.
  const fixed = /^Etc\/GMT([+-])(\d{1,2})$/.exec(zone);
  if (fixed) return `UTC${fixed[1] === '-' ? '+' : '-'}${fixed[2]!.padStart(2, '0')}:00`;
  return zone;
}
