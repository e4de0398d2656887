/** Weeks of the world: they start on Monday 00:00 UTC, counted from Monday 2000-01-03. */

export const WEEK_MS = 7 * 24 * 3600_000;
/** Monday 2000-01-03T00:00:00Z. */
export const EPOCH_MS = Date.UTC(2000, 0, 3);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function weekOf(ms: number): number {
  return Math.floor((ms - EPOCH_MS) / WEEK_MS);
}

export function weekStart(week: number): number {
  return EPOCH_MS + week * WEEK_MS;
}

/** "16 Nov" for an instant. */
export function dayMonth(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** The dates of a week, Monday to Sunday: "16-22 Nov 2026", "30 Nov-6 Dec 2026", "28 Dec 2026-3 Jan 2027". */
export function weekDates(week: number): string {
  const first = new Date(weekStart(week));
  const last = new Date(weekStart(week) + 6 * 24 * 3600_000);
  const y1 = first.getUTCFullYear();
  const y2 = last.getUTCFullYear();
  if (y1 !== y2) return `${dayMonth(first.getTime())} ${y1}-${dayMonth(last.getTime())} ${y2}`;
  if (first.getUTCMonth() !== last.getUTCMonth())
    return `${dayMonth(first.getTime())}-${dayMonth(last.getTime())} ${y2}`;
  return `${first.getUTCDate()}-${dayMonth(last.getTime())} ${y2}`;
}
