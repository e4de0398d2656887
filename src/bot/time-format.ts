/**
 * The one date and time style of every reply, card and digest (issue 12, item 9): what the
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
import type { TimeStyle } from './reply.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** An instant in `zone` in the house style (see above); `now` anchors relative times. */
export function formatInstant(time: Date, style: TimeStyle, zone: string, now: Date = new Date()): string {
  const dt = DateTime.fromJSDate(time, { zone });
  if (!dt.isValid) return 'an unknown time';
  switch (style) {
    case 'relative':
      return relative(dt, DateTime.fromJSDate(now, { zone }));
    case 'time':
      return dt.toFormat('HH:mm');
    case 'date':
      return dt.toFormat('ccc d LLL yyyy');
    default:
      return dt.toFormat('ccc d LLL yyyy, HH:mm');
  }
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** "in 5 minutes", "2 hours ago", "tomorrow", "in 3 days": minutes and hours within a day, then calendar days. */
function relative(dt: DateTime, now: DateTime): string {
  const diff = dt.toMillis() - now.toMillis();
  const ahead = diff >= 0;
  const abs = Math.abs(diff);
  if (abs < MINUTE) return 'now';
  if (abs < HOUR) {
    const n = Math.round(abs / MINUTE);
    return n >= 60
      ? ahead
        ? 'in 1 hour'
        : '1 hour ago'
      : ahead
        ? `in ${plural(n, 'minute')}`
        : `${plural(n, 'minute')} ago`;
  }
  if (abs < 24 * HOUR) {
    const n = Math.round(abs / HOUR);
    return ahead ? `in ${plural(n, 'hour')}` : `${plural(n, 'hour')} ago`;
  }
  const days = Math.round(dt.startOf('day').diff(now.startOf('day'), 'days').days);
  if (days === 1) return 'tomorrow';
  if (days === -1) return 'yesterday';
  if (days === 0) return ahead ? 'later today' : 'earlier today';
  return days > 0 ? `in ${plural(days, 'day')}` : `${plural(-days, 'day')} ago`;
}

/** A local calendar date (`2026-03-18`) in the house style: `Wed 18 Mar 2026`. */
export function formatLocalDate(isoDate: string): string {
  const dt = DateTime.fromISO(isoDate, { zone: 'UTC' });
  return dt.isValid ? dt.toFormat('ccc d LLL yyyy') : isoDate;
}

/**
 * A day's title relative to today in the same zone: `Today, Wed 18 Mar`, `Tomorrow, Thu 19 Mar`,
 * `Yesterday, Tue 17 Mar`, else `Fri 20 Mar 2026`.
 */
export function dayTitle(day: DateTime, today: DateTime): string {
  const days = Math.round(day.startOf('day').diff(today.startOf('day'), 'days').days);
  const short = day.toFormat('ccc d LLL');
  if (days === 0) return `Today, ${short}`;
  if (days === 1) return `Tomorrow, ${short}`;
  if (days === -1) return `Yesterday, ${short}`;
  return day.toFormat('ccc d LLL yyyy');
}

/** How a reply names its zone, once: the IANA name (`Europe/Berlin`), or `UTC`. */
export function zoneName(zone: string): string {
  return zone === 'Etc/UTC' || zone === 'UTC' ? 'UTC' : zone;
}
