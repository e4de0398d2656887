/**
 * A caster's line says "online, N viewers" only where the stream can be showing the series: while
 * it is live. Before it starts, a stream on air is on something else; after it ends, the series is
 * over. Pure logic over a caster as the service gives it.
 */
import { describe, expect, it } from 'vitest';
import { casterLine, seriesAhead, seriesOver } from '../../src/bot/format-streams.ts';
import { translator } from '../../src/i18n/i18n.ts';
import type { Caster, Series } from '../../src/protocol/types.ts';

const t = translator('en');
const platform = { id: 1, name: 'Twitch', url: 'https://twitch.tv', color: '#9146ff', images: [] };
const caster = (online: boolean): Caster =>
  ({
    id: 7,
    display_name: 'Ana',
    username: 'ana',
    game: { id: 1 },
    deleted_at: null,
    platform,
    stream: {
      id: 3,
      username: 'ana',
      display_name: 'Ana',
      status_text: '',
      viewer_count: 16597,
      online,
      last_online: null,
      images: [],
      platform,
    },
    region: {
      id: 1,
      name: 'Western Europe',
      abbreviation: 'WEU',
      country: { id: 1, name: 'Germany', abbreviation: 'DE', images: [] },
    },
  }) as unknown as Caster;
const text = (spans: ReturnType<typeof casterLine>) =>
  spans.map((s) => (typeof s === 'string' ? s : 'text' in s ? s.text : 'label' in s ? s.label : '')).join('');
const NOW = new Date('2026-03-18T15:20:00Z');
const line = (lifecycle: Series['lifecycle'], online: boolean, start = '2026-03-18T17:20:00Z') => {
  const series = { lifecycle, start };
  return text(
    casterLine(
      caster(online),
      { primary: true, over: seriesOver(series), ahead: seriesAhead(series, NOW) },
      t,
    ),
  );
};

describe('casterLine', () => {
  it('does not call a caster online for a series that has not started, nor give his viewers', () => {
    expect(line('upcoming', true)).toContain('streaming something else now (this series has not started)');
    expect(line('upcoming', true)).not.toContain('online');
    expect(line('upcoming', true)).not.toContain('16,597');
    expect(line('upcoming', false)).toContain('offline');
    // Within half an hour of the start a stream on air is the pre-show: online, with its viewers.
    expect(line('upcoming', true, '2026-03-18T15:35:00Z')).toContain('online, 16,597 viewers');
  });

  it('says online with viewers while the series is live, and series over once it ended', () => {
    expect(line('live', true)).toContain('online, 16,597 viewers');
    expect(line('over', true)).toContain('series over');
    expect(line('over', true)).not.toContain('online');
  });
});
