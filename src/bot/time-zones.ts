/**
 * Time zones as people type them: IANA names, cities ("berlin"), common abbreviations (CET, EST)
 * and offsets (UTC+2). `resolveTimeZone` turns text into a zone; `searchTimeZones` offers choices
 * (autocomplete, Tab), each of which `resolveTimeZone` accepts as offered.
 */
import { UserError } from '../core/errors.ts';
import type { Choice } from './choice.ts';
import { clip, MAX_NAME_INPUT, matchScore, normalizeName } from './name-match.ts';

/** Every IANA zone this runtime knows, plus UTC. */
const TIME_ZONES: string[] = (() => {
  const zones = new Set<string>(['UTC']);
  try {
    for (const zone of Intl.supportedValuesOf('timeZone')) zones.add(zone);
  } catch {
    // Older runtimes: UTC only; isTimeZone still validates whatever the user types.
  }
  return [...zones];
})();

/**
 * Autocomplete over time zones: the zone an abbreviation or offset means first ("cet" offers
 * Europe/Berlin), then IANA names by name or city ("berl", "new york"), then any zone containing
 * the text. Every value is an IANA name that `resolveTimeZone` takes as it is.
 */
export function searchTimeZones(text: string, limit = 25): Choice<string>[] {
  const raw = text.trim();
  const meant = ZONE_ABBREVIATIONS[raw.toUpperCase()] ?? offsetZone(raw);
  const query = normalizeName(raw);
  let ranked = TIME_ZONES.map((zone) => {
    const key = normalizeName(zone);
    const city = normalizeName(zone.split('/').pop() ?? zone);
    return { zone, score: query === '' ? 1 : Math.max(matchScore(query, key), matchScore(query, city)) };
  })
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.zone.localeCompare(b.zone));
  if (ranked.length === 0 && query !== '') {
    const compact = query.replaceAll(' ', '');
    ranked = TIME_ZONES.filter((zone) => normalizeName(zone).replaceAll(' ', '').includes(compact)).map(
      (zone) => ({ zone, score: 1 }),
    );
  }
  const zones = [...new Set([...(meant ? [meant] : []), ...ranked.map((r) => r.zone)])];
  return zones.slice(0, limit).map((zone) => ({ name: zone, value: zone }));
}

/**
 * Common abbreviations, as people type them, mapped to the zone they mean: a zone that follows the
 * region's daylight-saving rules (CET and CEST are both Europe/Berlin's), so times stay right all year.
 */
const ZONE_ABBREVIATIONS: Record<string, string> = {
  UTC: 'UTC',
  GMT: 'UTC',
  Z: 'UTC',
  WET: 'Europe/Lisbon',
  WEST: 'Europe/Lisbon',
  BST: 'Europe/London',
  CET: 'Europe/Berlin',
  CEST: 'Europe/Berlin',
  MET: 'Europe/Berlin',
  EET: 'Europe/Athens',
  EEST: 'Europe/Athens',
  MSK: 'Europe/Moscow',
  IST: 'Asia/Kolkata',
  SGT: 'Asia/Singapore',
  HKT: 'Asia/Hong_Kong',
  JST: 'Asia/Tokyo',
  KST: 'Asia/Seoul',
  AEST: 'Australia/Sydney',
  AEDT: 'Australia/Sydney',
  ACST: 'Australia/Adelaide',
  AWST: 'Australia/Perth',
  NZST: 'Pacific/Auckland',
  NZDT: 'Pacific/Auckland',
  EST: 'America/New_York',
  EDT: 'America/New_York',
  ET: 'America/New_York',
  CST: 'America/Chicago',
  CDT: 'America/Chicago',
  CT: 'America/Chicago',
  MST: 'America/Denver',
  MDT: 'America/Denver',
  MT: 'America/Denver',
  PST: 'America/Los_Angeles',
  PDT: 'America/Los_Angeles',
  PT: 'America/Los_Angeles',
  AKST: 'America/Anchorage',
  HST: 'Pacific/Honolulu',
  BRT: 'America/Sao_Paulo',
};

/** Zones for the offsets that are not whole hours (IANA's Etc/GMT zones have whole hours only). */
const PART_HOUR_OFFSETS: Record<string, string> = {
  '-9:30': 'Pacific/Marquesas',
  '-3:30': 'America/St_Johns',
  '+3:30': 'Asia/Tehran',
  '+4:30': 'Asia/Kabul',
  '+5:30': 'Asia/Kolkata',
  '+5:45': 'Asia/Kathmandu',
  '+6:30': 'Asia/Yangon',
  '+9:30': 'Australia/Darwin',
  '+10:30': 'Australia/Lord_Howe',
  '+12:45': 'Pacific/Chatham',
};

/**
 * A fixed offset ("UTC+2", "GMT-5", "+02:00", "UTC+5:30") as an IANA zone: whole hours as
 * `Etc/GMT-2` (IANA's sign is inverted: Etc/GMT-2 is two hours ahead of UTC), the common part-hour
 * offsets as the zone that uses them. Undefined when `text` is not an offset.
 */
function offsetZone(text: string): string | undefined {
  const match = /^(?:utc|gmt)?\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?$/i.exec(text);
  if (!match) return undefined;
  const [, sign, h, m] = match;
  const hours = Number(h);
  const minutes = Number(m ?? 0);
  if (hours > 14 || minutes >= 60) return undefined;
  if (minutes === 0) return hours === 0 ? 'UTC' : `Etc/GMT${sign === '+' ? '-' : '+'}${hours}`;
  return PART_HOUR_OFFSETS[`${sign}${hours}:${String(minutes).padStart(2, '0')}`];
}

/**
 * An IANA name in any case: one the runtime lists, one Matchday itself offers (Asia/Kolkata,
 * Etc/GMT-2: this runtime's list has Asia/Calcutta and no Etc zones), or another name the runtime
 * accepts (an alias such as US/Eastern), as the runtime's canonical name.
 */
function knownZone(raw: string): string | undefined {
  const lower = raw.toLowerCase();
  const offered = [...TIME_ZONES, ...Object.values(ZONE_ABBREVIATIONS), ...Object.values(PART_HOUR_OFFSETS)];
  const listed = offered.find((z) => z.toLowerCase() === lower);
  if (listed) return listed;
  const etc = /^etc\/gmt([+-])(\d{1,2})$/i.exec(raw);
  if (etc && Number(etc[2]) <= 14) return Number(etc[2]) === 0 ? 'UTC' : `Etc/GMT${etc[1]}${Number(etc[2])}`;
  if (!raw.includes('/')) return undefined;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: raw }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * Resolves a time zone: a common abbreviation (CET, EST, PST) or offset (UTC+2, GMT-5) as the zone
 * it means, an exact IANA name (any case), or a unique city match ("berlin").
 * Throws a `UserError` naming close zones otherwise.
 */
export function resolveTimeZone(text: string): string {
  const raw = text.trim();
  if (raw.length > MAX_NAME_INPUT || raw === '') {
    throw new UserError('BAD_TIMEZONE', 'Give a time zone such as Europe/Berlin, America/New_York or UTC.');
  }
  const abbreviation = ZONE_ABBREVIATIONS[raw.toUpperCase()];
  if (abbreviation) return abbreviation;
  const offset = offsetZone(raw);
  if (offset) return offset;
  const exact = knownZone(raw);
  if (exact) return exact;
  const choices = searchTimeZones(raw, 10);
  const best = choices[0];
  if (best && choices.length === 1) return best.value;
  if (choices.length > 1) {
    const names = choices.map((c) => c.value);
    throw new UserError(
      'AMBIGUOUS_TIMEZONE',
      `"${clip(raw, 40)}" matches several time zones: ${names.join(', ')}.`,
      names,
    );
  }
  throw new UserError(
    'BAD_TIMEZONE',
    `"${clip(raw, 40)}" is not a time zone; use an IANA name such as Europe/Berlin or UTC.`,
  );
}
