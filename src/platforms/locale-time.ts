/**
 * An instant as a reader of a locale writes it, for the renderers that write times as text (the
 * terminal, Slack's fallback text and table cells). English keeps the house style
 * (`src/bot/time-format.ts`: `Wed 18 Mar 2026, 15:23`, `in 5 minutes`); other locales go through
 * `Intl` in their own tag (`qua., 18 de mar. de 2026, 15:23`, `Mi., 18. März 2026, 15:23`,
 * `em 5 minutos`, `in 5 Minuten`), always on the 24-hour clock.
 */

import type { TimeStyle } from '../bot/reply.ts';
import { formatInstant } from '../bot/time-format.ts';
import { INTL_TAGS, type Translate } from '../i18n/i18n.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const DATE: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
};
const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

/** `time` in `zone` in the reader's language; `now` anchors relative times. */
export function localeInstant(
  time: Date,
  style: TimeStyle,
  zone: string,
  t: Translate,
  now: Date = new Date(),
): string {
  if (t.locale === 'en') return formatInstant(time, style, zone, now);
  if (!Number.isFinite(time.getTime())) return t('platform.render.unknownTime');
  const tag = INTL_TAGS[t.locale];
  const format = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(tag, { ...options, timeZone: zone }).format(time);
  try {
    switch (style) {
      case 'relative':
        return relative(time, now, zone, tag);
      case 'time':
        return format(TIME);
      case 'date':
        return format(DATE);
      default:
        return format({ ...DATE, ...TIME });
    }
  } catch {
    return t('platform.render.unknownTime');
  }
}

/** Minutes and hours within a day, then calendar days in `zone` ("amanhã", "morgen", "in 3 Tagen"). */
function relative(time: Date, now: Date, zone: string, tag: string): string {
  const words = new Intl.RelativeTimeFormat(tag, { numeric: 'auto' });
  const diff = time.getTime() - now.getTime();
  const abs = Math.abs(diff);
  const sign = diff >= 0 ? 1 : -1;
  if (abs < MINUTE) return words.format(0, 'second');
  if (abs < HOUR) return words.format(sign * Math.min(60, Math.round(abs / MINUTE)), 'minute');
  if (abs < DAY) return words.format(sign * Math.round(abs / HOUR), 'hour');
  const days = Math.round((dayNumber(time, zone) - dayNumber(now, zone)) / DAY);
  return words.format(days, 'day');
}

/** The instant's calendar day in `zone`, as milliseconds at that day's UTC midnight. */
function dayNumber(time: Date, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  })
    .format(time)
    .split('-')
    .map(Number);
  return Date.UTC(parts[0]!, parts[1]! - 1, parts[2]!);
}
