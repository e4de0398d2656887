/**
 * One date and time style across every reply, card and digest. Scans every
 * reviewed golden snapshot (each command and notification on each platform) for any other style
 * than the one `src/bot/time-format.ts` writes: no ISO dates outside a typed command's `day:`, no
 * 12-hour clock, no long weekday or month names, no "in 1 day", the zone named at most once per
 * terminal reply, and Slack's fallback text in the house style.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatInstant, formatLocalDate } from '../../src/bot/time-format.ts';
import { translator } from '../../src/i18n/i18n.ts';

const DIR = join(import.meta.dirname, '__snapshots__');
// English's snapshots: the other languages (`pt/`, `de/`) write dates through `Intl` in their own style.
const files = readdirSync(DIR, { withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map(({ name }) => ({ name, text: readFileSync(join(DIR, name), 'utf8') }));

const WEEKDAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
/** The house style's shapes: date, date and time, time. */
const HOUSE_DATE = new RegExp(`^${WEEKDAY} \\d{1,2} ${MONTH} \\d{4}$`);
const HOUSE_FULL = new RegExp(`^${WEEKDAY} \\d{1,2} ${MONTH} \\d{4}, \\d{2}:\\d{2}$`);
const HOUSE_TIME = /^\d{2}:\d{2}$/;

/** Problems with a text's dates and times, as readable strings. */
function offStyle(text: string): string[] {
  const problems: string[] = [];
  // ISO dates are for typing (`day:2026-03-18`), never for reading.
  for (const m of text.matchAll(/(.{0,4})(\d{4}-\d{2}-\d{2})/g))
    if (!m[1]!.endsWith('day:')) problems.push(`ISO date ${m[2]}`);
  for (const m of text.matchAll(/\b\d{1,2}(?::\d{2})?\s?(?:AM|PM|am|pm)\b/g))
    problems.push(`12-hour ${m[0]}`);
  for (const m of text.matchAll(
    /\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|June|July|August|September|October|November|December)\b/g,
  ))
    problems.push(`long name ${m[0]}`);
  for (const m of text.matchAll(/\bin 1 day\b|\b1 day ago\b|\b1 days\b|\b1 hours\b|\b1 minutes\b/g))
    problems.push(`relative ${m[0]}`);
  return problems;
}

describe('one date and time style', () => {
  it('the formatter writes the shapes this test accepts (so the scan checks the real style)', () => {
    const t = new Date('2026-03-18T15:23:00Z');
    expect(formatInstant(t, 'date', 'UTC')).toMatch(HOUSE_DATE);
    expect(formatInstant(t, 'full', 'UTC')).toMatch(HOUSE_FULL);
    expect(formatInstant(t, 'time', 'Europe/Berlin')).toBe('16:23');
    expect(formatLocalDate('2026-03-18', translator('en'))).toMatch(HOUSE_DATE);
    const now = new Date('2026-03-18T12:00:00Z');
    expect(formatInstant(new Date('2026-03-19T20:00:00Z'), 'relative', 'UTC', now)).toBe('tomorrow');
    expect(formatInstant(new Date('2026-03-17T08:00:00Z'), 'relative', 'UTC', now)).toBe('yesterday');
    expect(formatInstant(new Date('2026-03-18T12:05:00Z'), 'relative', 'UTC', now)).toBe('in 5 minutes');
    expect(formatInstant(new Date('2026-03-18T10:00:00Z'), 'relative', 'UTC', now)).toBe('2 hours ago');
    expect(formatInstant(new Date('2026-03-21T10:00:00Z'), 'relative', 'UTC', now)).toBe('in 3 days');
    // The scan finds what it is meant to find.
    expect(offStyle('Started 2026-03-18 15:23 UTC · Wednesday 18 March · 3:23 PM · in 1 day')).toHaveLength(
      5,
    );
    expect(offStyle('/schedule day:2026-03-18 page:2 · Wed 18 Mar 2026, 15:23 (tomorrow)')).toEqual([]);
  });

  it('holds in every golden reply on every platform', () => {
    expect(files.length).toBeGreaterThan(60);
    for (const { name, text } of files) expect(offStyle(text), name).toEqual([]);
  });

  it('names the zone at most once in a terminal reply', () => {
    for (const { name, text } of files.filter((f) => f.name.endsWith('.terminal.txt'))) {
      const named = text.match(/\bUTC\b/g) ?? [];
      expect(named.length, name).toBeLessThanOrEqual(1);
    }
  });

  it("writes Slack's date fallbacks in the house style, in UTC", () => {
    let seen = 0;
    for (const { name, text } of files.filter((f) => f.name.endsWith('.slack.json')))
      for (const m of text.matchAll(/<!date\^\d+\^([^|]+)\|([^>]+)>/g)) {
        seen++;
        const [, tokens, fallback] = m;
        if (tokens === '{date_short_pretty}') expect(fallback, name).toMatch(HOUSE_DATE);
        else {
          expect(fallback, name).toMatch(/ UTC$/);
          const bare = fallback!.replace(/ UTC$/, '');
          expect(HOUSE_FULL.test(bare) || HOUSE_TIME.test(bare), `${name}: ${fallback}`).toBe(true);
        }
      }
    expect(seen).toBeGreaterThan(10);
  });
});
