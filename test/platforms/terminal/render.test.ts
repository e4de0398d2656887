import { describe, expect, it } from 'vitest';
import { COLOURS, type Reply, STALE_NOTICE } from '../../../src/bot/reply.ts';
import { formatTime, renderReply, SPOILER_PLACEHOLDER } from '../../../src/platforms/terminal/render.ts';

const start = new Date('2026-03-01T18:30:00Z');
const plain = { colour: false, timezone: 'Europe/Berlin', now: new Date('2026-03-01T18:00:00Z') };

const reply: Reply = {
  content: [{ role: 'fans' }, ' series soon'],
  cards: [
    {
      title: 'Team Spirit vs Natus Vincere',
      url: 'https://example.com/s/1',
      colour: COLOURS.upcoming,
      description: [
        ['Starts ', { time: start, style: 'full' }, ' (', { time: start, style: 'relative' }, ')'],
        ['Winner: ', { spoiler: ['Team Spirit 2-1'] }],
        [{ text: 'Bo3', bold: true }, ' · ', { link: 'https://twitch.tv/x', label: 'Twitch' }],
      ],
      fields: [
        { name: 'Tournament', value: ['PGL Major'] },
        { name: 'Map', value: ['Mirage'] },
      ],
      table: {
        columns: [{ header: '#', align: 'right' }, { header: 'Team' }, { header: 'Pts', align: 'right' }],
        rows: [
          [['1'], ['Team Spirit'], ['12']],
          [['10'], ['G2'], ['3']],
        ],
      },
      footer: 'Data: local service',
      buttons: [{ label: 'Watch', url: 'https://twitch.tv/x' }],
      image: { url: 'https://img/x.png', alt: 'bracket' },
    },
  ],
  stale: true,
};

describe('renderReply (terminal)', () => {
  it('renders a card as readable plain text in the tenant time zone', () => {
    expect(renderReply(reply, plain)).toBe(
      [
        '@fans series soon',
        '',
        '▌ Team Spirit vs Natus Vincere <https://example.com/s/1>',
        '▌ Starts Sun 1 Mar 2026, 19:30 (in 30 minutes)',
        `▌ Winner: ${SPOILER_PLACEHOLDER}`,
        '▌ Bo3 · Twitch <https://twitch.tv/x>',
        '▌ Tournament  PGL Major',
        '▌ Map         Mirage',
        '▌  #  Team         Pts',
        '▌ ──  ───────────  ───',
        '▌  1  Team Spirit   12',
        '▌ 10  G2             3',
        '▌ [image: bracket] <https://img/x.png>',
        '▌ → Watch <https://twitch.tv/x>',
        '▌ Data: local service',
        '',
        `⚠ ${STALE_NOTICE}`,
        '',
        // Times carry no zone each; the reply names it once.
        'Times in Europe/Berlin.',
      ].join('\n'),
    );
  });

  it('never reveals a spoiler', () => {
    expect(renderReply(reply, plain)).not.toContain('2-1');
  });

  it('strips escape sequences and control characters from data', () => {
    const text = renderReply(
      { cards: [{ title: 'Evil\u001b[2J\u0007 Team\nName', description: [['a\u001b]0;x\u0007b']] }] },
      plain,
    );
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting none survive
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(text).toContain('Evil[2J Team Name');
  });

  it('adds ANSI colour only when asked, with the card colour as a bar', () => {
    const coloured = renderReply(reply, { ...plain, colour: true });
    expect(coloured).toContain('\u001b[1mTeam Spirit vs Natus Vincere\u001b[0m');
    expect(coloured).toContain('\u001b[38;2;59;130;246m▌\u001b[0m');
    expect(renderReply(reply, plain)).not.toContain('\u001b[');
  });

  it('keeps a wrapped field in its column, with colour as without', () => {
    const card: Reply = {
      cards: [
        {
          title: 'Status',
          fields: [
            { name: 'Esports data service', value: ['Answering'] },
            {
              name: 'Next series',
              value: ['Wild Comets vs Golden Krakens (series 1403600237) in 6 minutes: live data expected'],
            },
          ],
        },
      ],
    };
    for (const colour of [false, true]) {
      const lines = renderReply(card, { ...plain, colour, width: 60 })
        // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI sequences start with ESC
        .replace(/\u001b\[[0-9;]*m/g, '')
        .split('\n');
      const first = lines.findIndex((line) => line.includes('Next series'));
      const valueAt = lines[first]!.indexOf('Wild');
      // The value starts after the padded label column, and its next line starts under it.
      expect(valueAt, `colour ${colour}`).toBe(lines[first - 1]!.indexOf('Answering'));
      expect(lines[first + 1]!.slice(2).search(/\S/) + 2, `colour ${colour}`).toBe(valueAt);
    }
  });

  it('does not let one very long label push every value aside, and never cuts a link', () => {
    const url = 'https://stream.matchday.invalid/zerzertekcasts-and-more';
    const card: Reply = {
      cards: [
        {
          title: 'Live',
          fields: [
            {
              name: "Now: game 1 · Summoner's Rift Valley",
              value: ['Azure Golems 4–1 Onyx Rangers (kills) · 1:53'],
            },
            { name: 'Gold lead', value: ['Azure Golems +840'] },
            {
              name: 'Stream: XenceCasts',
              value: ['VidCast · online, 31,399 viewers · ', { link: url, label: 'watch' }],
            },
          ],
        },
      ],
    };
    const lines = renderReply(card, { ...plain, width: 80 }).split('\n');
    const gold = lines.find((line) => line.includes('Gold lead'))!;
    // The column fits the short labels ("Stream: XenceCasts"), not the 36-column one.
    expect(gold.indexOf('Azure')).toBe(2 + 'Stream: XenceCasts'.length + 2);
    expect(lines.some((line) => line.includes(url))).toBe(true);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('aligns a wrapped value under its first column when a long (German) label overflows the label column', () => {
    const label = 'Benachrichtigungen per Direktnachricht'; // 38 columns: past the 30-column label column
    const card: Reply = {
      cards: [
        {
          title: 'Deine Einstellungen',
          fields: [
            {
              name: 'Ruhezeit',
              value: ['22:30 bis 07:00, in deiner Zeitzone Europe/Berlin, an jedem Tag der Woche'],
            },
            {
              name: label,
              value: [
                'Erinnerungen 15 Minuten vorher, Live-Karten beim Start und Ergebnisse hinter einem Spoiler',
              ],
            },
          ],
        },
      ],
    };
    for (const colour of [false, true])
      for (const width of [60, 80]) {
        const lines = renderReply(card, { ...plain, colour, width })
          // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI sequences start with ESC
          .replace(/\u001b\[[0-9;]*m/g, '')
          .split('\n');
        const at = (text: string) => lines.findIndex((line) => line.includes(text));
        const long = at(label);
        const valueAt = lines[long]!.indexOf('Erinnerungen');
        expect(valueAt, `width ${width}`).toBe(2 + label.length + 2);
        const more = lines.slice(long + 1).filter((line) => line.length > 2);
        expect(more.length, `width ${width}: the value wraps`).toBeGreaterThan(0);
        for (const line of more)
          expect(line.slice(2).search(/\S/) + 2, `width ${width}: ${line}`).toBe(valueAt);
        // The short label keeps its own column: its continuation sits under its value, not the long one's.
        const quiet = at('Ruhezeit');
        const quietAt = lines[quiet]!.indexOf('22:30');
        expect(quietAt).toBe(2 + 'Ruhezeit'.length + 2);
        expect(lines[quiet + 1]!.slice(2).search(/\S/) + 2).toBe(quietAt);
        for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(width);
      }
  });

  it('formats each time style in the given zone', () => {
    expect(formatTime(start, 'time', 'Asia/Tokyo')).toBe('03:30');
    expect(formatTime(start, 'date', 'Asia/Tokyo')).toBe('Mon 2 Mar 2026');
    expect(formatTime(start, 'full', 'UTC')).toBe('Sun 1 Mar 2026, 18:30');
    expect(formatTime(start, 'relative', 'UTC', new Date('2026-03-01T20:30:00Z'))).toBe('2 hours ago');
  });
});
