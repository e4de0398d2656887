/**
 * Watch links and stream languages: a stream on a platform the formatter
 * cannot link still gets the URL the data has, or else its channel name; `/casters` names each
 * broadcast's language, as the data gives it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { casterLine, streamButtons, watchUrl } from '../../src/bot/format-streams.ts';
import type { Text } from '../../src/bot/reply.ts';
import { translator } from '../../src/i18n/i18n.ts';
import type { Caster } from '../../src/protocol/types.ts';
import { APIS, call, type Stack, startStack } from './helpers.ts';
import { worldSeries } from './truth.ts';

function caster(platform: string, options: { url?: string; online?: boolean } = {}): Caster {
  const p = { id: 9, name: platform, color: '#000000', images: [] };
  return {
    id: 1,
    display_name: 'Ana',
    username: 'ana_casts',
    game: { id: 1 },
    deleted_at: null,
    platform: p,
    stream: {
      id: 2,
      username: 'ana_casts',
      display_name: 'Ana',
      status_text: '',
      viewer_count: 1200,
      online: options.online ?? true,
      last_online: null,
      images: [],
      platform: p,
    },
    region: {
      id: 1,
      name: 'Europe',
      abbreviation: 'EU',
      country: { id: 1, name: 'Portugal', abbreviation: 'PT', images: [] },
    },
    ...(options.url !== undefined ? { url: options.url } : {}),
  };
}

const links = (text: Text) =>
  text.flatMap((span) => (typeof span === 'object' && 'link' in span ? [span.link] : []));

describe('watch links', () => {
  it('links a known platform, else the URL the data has, else names the channel', () => {
    expect(watchUrl(caster('Twitch'))).toBe('https://www.twitch.tv/ana_casts');
    expect(watchUrl(caster('Streamly', { url: 'https://streamly.example/ana' }))).toBe(
      'https://streamly.example/ana',
    );
    expect(watchUrl(caster('Streamly'))).toBeUndefined();
    // Only web links: anything else in the data is not offered as a link.
    expect(watchUrl(caster('Streamly', { url: 'javascript:alert(1)' }))).toBeUndefined();
    expect(watchUrl(caster('Streamly', { url: 'https://a b' }))).toBeUndefined();

    const withUrl = casterLine(
      caster('Streamly', { url: 'https://streamly.example/ana' }),
      {
        primary: true,
      },
      translator('en'),
    );
    expect(links(withUrl)).toEqual(['https://streamly.example/ana']);
    const without = casterLine(caster('Streamly'), { primary: false }, translator('en'));
    expect(links(without)).toEqual([]);
    expect(without.map((s) => (typeof s === 'string' ? s : 'text' in s ? s.text : '')).join('')).toBe(
      'Ana · Streamly: ana_casts · online, 1,200 viewers',
    );
  });

  it('offers watch buttons for online streams with a URL, whatever the platform', () => {
    expect(
      streamButtons(
        [
          caster('Streamly', { url: 'https://streamly.example/ana' }),
          caster('Streamly'),
          caster('Twitch', { online: false }),
        ],
        translator('en'),
      ),
    ).toEqual([{ label: 'Ana on Streamly', url: 'https://streamly.example/ana' }]);
  });
});

describe.each(APIS)('/casters languages on %s', (api) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('names each broadcast with the language the data gives it, official first', async () => {
    const world = stack.service.world;
    const series = worldSeries(world).find(
      (s) => s.lifecycle === 'upcoming' && s.casters.length > 0 && s.broadcasters.length > 0,
    )!;
    const result = await call(stack, 'casters', { series: String(series.id) });
    expect(result.outcome).toBe('ok');
    if (api === 'v2') {
      // v2 has no broadcasters (only casters): no broadcast lines; each caster offers the watch
      // link the v2 data has.
      expect(result.text).not.toContain('Broadcast · ');
      const casters = result.text.split('\n').filter((l) => / · (online|offline)/.test(l));
      expect(casters).toHaveLength(series.casters.length);
      for (const line of casters) expect(line).toMatch(/ · watch$/);
      expect(JSON.stringify(result.reply)).toMatch(/"https:\/\/[^"]+"/);
      return;
    }
    const lines = result.text.split('\n').filter((l) => l.startsWith('Broadcast · '));
    expect(lines).toHaveLength(series.broadcasters.length);
    const languageOf = (id: number) => world.catalog.languages.find((l) => l.id === id)!.name;
    for (const entry of series.broadcasters) {
      const line = lines.find((l) => l.includes(entry.broadcaster.name))!;
      expect(line).toBeDefined();
      for (const b of entry.broadcasts) expect(line).toContain(languageOf(b.language.id));
      expect(line.includes('(official)')).toBe(entry.official);
    }
    // The language names come from the name index: no request beyond the series and its casters.
    expect(result.upstream).toBeLessThanOrEqual(2);
  });
});
