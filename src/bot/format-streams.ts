/**
 * Where to watch a series: casters and broadcasts as lines, fields and link buttons, for the
 * series and live cards (`format.ts`, `format-live.ts`), `/casters` and calendar entries. A series
 * that is over says so instead of its casters' current stream state (they may be live elsewhere).
 */

import { INTL_TAGS, type Translate } from '../i18n/i18n.ts';
import type { Caster, Series, SeriesCasterEntry, Stream } from '../protocol/types.ts';
import type { Field, Text } from './reply.ts';

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

/** How long before a series its casters' pre-show may already be on air. */
const PRE_SHOW_MS = 30 * 60_000;

/**
 * Does the series start later than its pre-show (more than `PRE_SHOW_MS` after `now`)? Then its
 * casters' streams, if on air, show something else. False without `now` (nothing is claimed).
 */
export function seriesAhead(series: Pick<Series, 'lifecycle' | 'start'>, now: Date | undefined): boolean {
  if (!now || (series.lifecycle !== 'upcoming' && series.lifecycle !== 'unknown')) return false;
  return series.start === null || Date.parse(series.start) - now.getTime() > PRE_SHOW_MS;
}

/**
 * One line per caster: name (primary), platform, language, online and viewers, link. For a series
 * that is over (`over`), the stream's state says nothing about it (the caster may be live on
 * another series): the line says the series is over instead of "online, N viewers". For one not
 * started (`ahead`), a stream on air is on something else: the line says so, without its viewers.
 */
export function casterLine(
  caster: Caster,
  options: { primary: boolean; language?: string; over?: boolean; ahead?: boolean },
  t: Translate,
): Text {
  const spans: Text = [{ text: caster.display_name, bold: true }];
  if (options.primary) spans.push(` (${t('cards.streams.primary')})`);
  const url = watchUrl(caster);
  // No link to give: the channel's name on its platform, so a fan can still find it.
  spans.push(` · ${caster.stream.platform.name}${url ? '' : `: ${caster.stream.username}`}`);
  if (options.language) spans.push(` · ${options.language}`);
  spans.push(
    options.over
      ? ` · ${t('cards.streams.over')}`
      : caster.stream.online && options.ahead
        ? ` · ${t('cards.streams.elsewhere')}`
        : caster.stream.online
          ? ` · ${t('cards.streams.online', { count: caster.stream.viewer_count, viewers: t.number(caster.stream.viewer_count) })}`
          : ` · ${t('cards.streams.offline')}`,
  );
  if (url) spans.push(' · ', { link: url, label: t('cards.streams.watch') });
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
  t: Translate,
): Text[] {
  return [...(series.broadcasters ?? [])]
    .sort((a, b) => Number(b.official) - Number(a.official))
    .slice(0, max)
    .map((entry) => {
      const languages = [
        ...new Set(
          entry.broadcasts.flatMap((b) => {
            const name = languageName(b.language.id);
            return name ? [languageIn(name, t)] : [];
          }),
        ),
      ];
      return [
        `${t('cards.streams.broadcast')} · `,
        { text: entry.broadcaster.name, bold: true },
        entry.official ? ` (${t('cards.streams.official')})` : '',
        languages.length > 0 ? ` · ${languages.join(', ')}` : '',
      ].filter((span) => span !== '');
    });
}

let englishNames: Map<string, string> | undefined;

/** ISO 639-1 codes by their English name ("german" -> "de"), as `Intl` names them; built once. */
function languageCodes(): Map<string, string> {
  if (englishNames) return englishNames;
  const english = new Intl.DisplayNames('en', { type: 'language', fallback: 'none' });
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  englishNames = new Map();
  for (const a of letters)
    for (const b of letters) {
      const name = english.of(`${a}${b}`);
      if (name) englishNames.set(name.toLowerCase(), `${a}${b}`);
    }
  return englishNames;
}

/**
 * A broadcast language's name, which the data writes in English ("German"), in the reader's
 * language through `Intl` ("alemão", "Deutsch"); a name `Intl` does not know stays as written.
 */
export function languageIn(name: string, t: Translate): string {
  if (t.locale === 'en') return name;
  const code = languageCodes().get(name.toLowerCase());
  return (code && new Intl.DisplayNames(INTL_TAGS[t.locale], { type: 'language' }).of(code)) || name;
}

/** Link buttons for the top online streams (at most `max`). */
export function streamButtons(
  casters: readonly Caster[],
  t: Translate,
  max = 3,
): { label: string; url: string }[] {
  const buttons: { label: string; url: string }[] = [];
  for (const caster of casters) {
    const url = watchUrl(caster);
    if (!url || !caster.stream.online) continue;
    const label = t('cards.streams.on', {
      caster: caster.display_name,
      platform: caster.stream.platform.name,
    });
    buttons.push({ label: label.slice(0, 80), url });
    if (buttons.length >= max) break;
  }
  return buttons;
}

/**
 * Streams as fields, one per caster (primary first): name the caster, value the platform, online
 * state and viewers and a link. One line each, so every platform renders them alike.
 */
export function streamFields(
  series: Pick<Series, 'casters' | 'lifecycle' | 'start'>,
  casters: readonly Caster[] | undefined,
  t: Translate,
  limit = 5,
  /** The instant the card is written at: a stream on air hours before the series is on something else. */
  now?: Date,
): Field[] {
  if (!casters || casters.length === 0) return [];
  const primary = new Set(series.casters.filter((e) => e.primary).map((e) => e.caster.id));
  const ordered = orderCasters(casters, series.casters);
  const fields: Field[] = ordered.slice(0, limit).map((c) => {
    const [, ...rest] = casterLine(
      c,
      { primary: false, over: seriesOver(series), ahead: seriesAhead(series, now) },
      t,
    );
    // casterLine starts with the name and " · platform": the name goes to the field name.
    const value =
      rest.length > 0 && typeof rest[0] === 'string' ? [rest[0].replace(/^ · /, ''), ...rest.slice(1)] : rest;
    const name = t('cards.streams.stream', { caster: c.display_name });
    const mark = primary.has(c.id) ? ` (${t('cards.streams.primary')})` : '';
    return { name: `${name}${mark}`, value, inline: true };
  });
  if (ordered.length > limit)
    fields.push({
      name: t('cards.streams.moreStreams'),
      value: [t('cards.streams.more', { count: ordered.length - limit })],
      inline: true,
    });
  return fields;
}

/**
 * The link buttons of a card about `series`: its top online streams (primary caster first), none
 * once the series is over or when no casters are given.
 */
export function watchButtons(
  series: Pick<Series, 'casters' | 'lifecycle'>,
  casters: readonly Caster[] | undefined,
  t: Translate,
): { label: string; url: string }[] {
  return casters && !seriesOver(series) ? streamButtons(orderCasters(casters, series.casters), t) : [];
}
