/**
 * Where to watch a series: casters and broadcasts as lines, fields and link buttons, for the
 * series and live cards (`format.ts`, `format-live.ts`), `/casters` and calendar entries. A series
 * that is over says so instead of its casters' current stream state (they may be live elsewhere).
 */

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

/**
 * One line per caster: name (primary), platform, language, online and viewers, link. For a series
 * that is over (`over`), the stream's state says nothing about it (the caster may be live on
 * another series): the line says the series is over instead of "online, N viewers".
 */
export function casterLine(
  caster: Caster,
  options: { primary: boolean; language?: string; over?: boolean },
): Text {
  const spans: Text = [{ text: caster.display_name, bold: true }];
  if (options.primary) spans.push(' (primary)');
  const url = watchUrl(caster);
  // No link to give: the channel's name on its platform, so a fan can still find it.
  spans.push(` · ${caster.stream.platform.name}${url ? '' : `: ${caster.stream.username}`}`);
  if (options.language) spans.push(` · ${options.language}`);
  spans.push(
    options.over
      ? ' · series over'
      : caster.stream.online
        ? ` · online, ${caster.stream.viewer_count.toLocaleString('en')} viewers`
        : ' · offline',
  );
  if (url) spans.push(' · ', { link: url, label: 'watch' });
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
): Text[] {
  return [...(series.broadcasters ?? [])]
    .sort((a, b) => Number(b.official) - Number(a.official))
    .slice(0, max)
    .map((entry) => {
      const languages = [
        ...new Set(entry.broadcasts.map((b) => languageName(b.language.id)).filter(Boolean)),
      ];
      return [
        'Broadcast · ',
        { text: entry.broadcaster.name, bold: true },
        entry.official ? ' (official)' : '',
        languages.length > 0 ? ` · ${languages.join(', ')}` : '',
      ].filter((span) => span !== '');
    });
}

/** Link buttons for the top online streams (at most `max`). */
export function streamButtons(casters: readonly Caster[], max = 3): { label: string; url: string }[] {
  const buttons: { label: string; url: string }[] = [];
  for (const caster of casters) {
    const url = watchUrl(caster);
    if (!url || !caster.stream.online) continue;
    buttons.push({ label: `${caster.display_name} on ${caster.stream.platform.name}`.slice(0, 80), url });
    if (buttons.length >= max) break;
  }
  return buttons;
}

/**
 * Streams as fields, one per caster (primary first): name the caster, value the platform, online
 * state and viewers and a link. One line each, so every platform renders them alike.
 */
export function streamFields(
  series: Pick<Series, 'casters' | 'lifecycle'>,
  casters: readonly Caster[] | undefined,
  limit = 5,
): Field[] {
  if (!casters || casters.length === 0) return [];
  const primary = new Set(series.casters.filter((e) => e.primary).map((e) => e.caster.id));
  const ordered = orderCasters(casters, series.casters);
  const fields: Field[] = ordered.slice(0, limit).map((c) => {
    const [, ...rest] = casterLine(c, { primary: false, over: seriesOver(series) });
    // casterLine starts with the name and " · platform": the name goes to the field name.
    const value =
      rest.length > 0 && typeof rest[0] === 'string' ? [rest[0].replace(/^ · /, ''), ...rest.slice(1)] : rest;
    return { name: `Stream: ${c.display_name}${primary.has(c.id) ? ' (primary)' : ''}`, value, inline: true };
  });
  if (ordered.length > limit)
    fields.push({ name: 'More streams', value: [`${ordered.length - limit} more`], inline: true });
  return fields;
}

/**
 * The link buttons of a card about `series`: its top online streams (primary caster first), none
 * once the series is over or when no casters are given.
 */
export function watchButtons(
  series: Pick<Series, 'casters' | 'lifecycle'>,
  casters: readonly Caster[] | undefined,
): { label: string; url: string }[] {
  return casters && !seriesOver(series) ? streamButtons(orderCasters(casters, series.casters)) : [];
}
