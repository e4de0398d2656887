import { describe, expect, it } from 'vitest';
import { type Card, COLOURS, type Reply, STALE_NOTICE, type Text } from '../../../src/bot/reply.ts';
import { nonceFor, renderReply, restBody } from '../../../src/platforms/discord/render.ts';
import { escapeText, renderText } from '../../../src/platforms/discord/render-text.ts';
import { messageProblems } from '../../fakes/discord/validate.ts';

const at = new Date('2025-06-01T18:30:00Z');
const unix = Math.floor(at.getTime() / 1000);

function valid(reply: Reply, single = false): ReturnType<typeof renderReply> {
  const messages = renderReply(reply, { single });
  for (const message of messages)
    expect(messageProblems(restBody(message).body, { create: true })).toEqual([]);
  return messages;
}

describe('renderReply', () => {
  it('renders a card as one embed with title, colour, description, fields and footer', () => {
    const [message, ...rest] = valid({
      cards: [
        {
          title: 'G2 vs Fnatic',
          colour: COLOURS.live,
          description: [['Best of 3 · ', { text: 'LEC', bold: true }]],
          fields: [{ name: 'Score', value: ['1 - 0'], inline: true }],
          footer: 'Matchday',
        },
      ],
    });
    expect(rest).toHaveLength(0);
    expect(message!.embeds).toEqual([
      {
        color: COLOURS.live,
        title: 'G2 vs Fnatic',
        description: 'Best of 3 · **LEC**',
        fields: [{ name: 'Score', value: '1 - 0', inline: true }],
        footer: { text: 'Matchday' },
      },
    ]);
    expect(message!.allowed_mentions).toEqual({ parse: [], roles: [] });
    expect(message!.flags).toBeUndefined();
  });

  it('renders times as native timestamp tags in every style', () => {
    const text: Text = [
      { time: at, style: 'full' },
      ' ',
      { time: at, style: 'relative' },
      ' ',
      { time: at, style: 'time' },
      ' ',
      { time: at, style: 'date' },
    ];
    expect(renderText(text, 2000)).toBe(`<t:${unix}:f> <t:${unix}:R> <t:${unix}:t> <t:${unix}:D>`);
    expect(renderText([{ time: new Date(Number.NaN), style: 'full' }], 100)).toBe('an unknown time');
  });

  it('hides spoilers with ||, and a spoiler cut to fit stays closed', () => {
    expect(renderText(['Winner: ', { spoiler: [{ text: 'G2', bold: true }, ' 2-1'] }], 2000)).toBe(
      'Winner: ||**G2** 2-1||',
    );
    const cut = renderText(['Result ', { spoiler: ['x'.repeat(5000)] }], 100);
    expect(cut.length).toBeLessThanOrEqual(100);
    expect(cut).toMatch(/^Result \|\|x+…?\|\|…$/);
    expect(cut.match(/\|\|/g)).toHaveLength(2);
  });

  it('escapes data so that names cannot format, link or ping', () => {
    const out = renderText(
      [
        '@everyone **G2** <@&123456789012345678> [free](http://evil.example) @here _x_ <t:1:R> <#123456789012345678>',
      ],
      2000,
    );
    expect(out).not.toMatch(/(^|[^\u200b])@everyone/);
    expect(out).not.toContain('@here');
    expect(out).not.toContain('<@&');
    expect(out).not.toContain('<t:');
    expect(out).not.toContain('<#');
    expect(out).toContain('\\*\\*G2\\*\\*');
    expect(out).not.toMatch(/[^\\]\[free\]\(/);
    expect(escapeText('# heading')).toBe('\\# heading');
  });

  it("pings only the reply's mention roles, and never everyone", () => {
    const [message] = valid({
      content: [
        { role: '111111111111111111' },
        ' ',
        { role: '222222222222222222' },
        ' Match starting, @everyone',
      ],
      cards: [{ title: 'Soon' }],
      mentionRoles: ['111111111111111111', 'not-a-snowflake'],
    });
    expect(message!.content).toContain('<@&111111111111111111>');
    expect(message!.content).toContain('<@&222222222222222222>');
    expect(message!.content).toContain(`@\u200beveryone`);
    expect(message!.allowed_mentions).toEqual({ parse: [], roles: ['111111111111111111'] });
  });

  it('renders links as masked links and drops unsafe URLs', () => {
    expect(renderText([{ link: 'https://example.com/a(b)', label: 'Watch [live]' }], 200)).toBe(
      '[Watch \\[live\\]](https://example.com/a%28b%29)',
    );
    expect(renderText([{ link: 'javascript:alert(1)', label: 'Click' }], 200)).toBe('Click');
  });

  it('turns buttons into link buttons, five per row, at most five rows, skipping unsafe URLs', () => {
    const buttons = Array.from({ length: 30 }, (_, i) => ({
      label: `Stream ${i}`,
      url: `https://twitch.tv/${i}`,
    }));
    buttons.push({ label: 'bad', url: 'ftp://x' });
    const [message] = valid({ cards: [{ title: 'Streams', buttons }] });
    expect(message!.components).toHaveLength(5);
    expect(message!.components.every((row) => row.components.length === 5)).toBe(true);
    expect(message!.components[0]!.components[0]).toEqual({
      type: 2,
      style: 5,
      label: 'Stream 0',
      url: 'https://twitch.tv/0',
    });
    expect(JSON.stringify(message!.components)).not.toContain('ftp://');
  });

  it('attaches a PNG image and points the embed at it; a URL image stays a URL', () => {
    const png = new Uint8Array([137, 80, 78, 71]);
    const [message] = valid({
      cards: [
        { title: 'Bracket', image: { png, name: 'bracket view.png', alt: 'The playoff bracket' } },
        { title: 'Logo', image: { url: 'https://cdn.example/logo.png', alt: 'logo' } },
      ],
    });
    expect(message!.files).toHaveLength(1);
    expect(message!.files[0]!.name).toBe('bracket_view.png');
    expect(message!.files[0]!.description).toBe('The playoff bracket');
    expect(message!.embeds[0]!.image).toEqual({ url: 'attachment://bracket_view.png' });
    expect(message!.embeds[1]!.image).toEqual({ url: 'https://cdn.example/logo.png' });
    const { body, files } = restBody(message!);
    expect(body.attachments).toEqual([
      { id: 0, filename: 'bracket_view.png', description: 'The playoff bracket' },
    ]);
    expect(files[0]!.data.equals(Buffer.from(png))).toBe(true);
  });

  it('adds the stale notice and the ephemeral flag', () => {
    const [message] = valid({ cards: [{ title: 'Standings' }], stale: true, ephemeral: true });
    expect(message!.content).toContain(STALE_NOTICE);
    expect(message!.flags).toBe(64);
    const [fresh] = valid({ cards: [{ title: 'Standings' }] });
    expect(fresh!.content).toBeUndefined();
  });

  it('renders a plain table as an aligned code block, with numbers right-aligned', () => {
    const [message] = valid({
      cards: [
        {
          title: 'Standings',
          table: {
            columns: [{ header: '#', align: 'right' }, { header: 'Team' }, { header: 'W-L', align: 'right' }],
            rows: [
              [['1'], ['Team Liquid'], ['10-2']],
              [['10'], ['G2'], ['9-3']],
            ],
          },
        },
      ],
    });
    expect(message!.embeds[0]!.description).toBe(
      ['```', ' #  Team          W-L', ' 1  Team Liquid  10-2', '10  G2            9-3', '```'].join('\n'),
    );
  });

  it('keeps times and spoilers native in a table that has them', () => {
    const [message] = valid({
      cards: [
        {
          title: 'Results',
          table: {
            columns: [{ header: 'When' }, { header: 'Match' }],
            rows: [[[{ time: at, style: 'time' }], [{ spoiler: ['G2 2-0 FNC'] }]]],
          },
        },
      ],
    });
    expect(message!.embeds[0]!.description).toBe(`**When** · **Match**\n<t:${unix}:t> · ||G2 2-0 FNC||`);
  });

  it('splits what exceeds one message into several, each within every limit', () => {
    const long = 'Lorem ipsum dolor sit amet, '.repeat(400);
    const cards: Card[] = Array.from({ length: 14 }, (_, i) => ({
      title: `${'T'.repeat(300)}${i}`,
      description: [[long], [long.slice(0, 3000)]],
      fields: Array.from({ length: 40 }, (_, j) => ({ name: `F${j}`.repeat(200), value: [long] })),
      footer: 'f'.repeat(3000),
    }));
    const messages = valid({ content: ['c'.repeat(5000)], cards, mentionRoles: [] });
    expect(messages.length).toBeGreaterThan(5);
    expect(messages[0]!.content!.length).toBeLessThanOrEqual(2000);
    expect(messages.slice(1).every((m) => m.content === undefined)).toBe(true);
  });

  it('in single mode keeps one message and says what did not fit', () => {
    const cards: Card[] = Array.from({ length: 12 }, (_, i) => ({
      title: `Series ${i}`,
      description: [['x'.repeat(900)]],
    }));
    const messages = valid({ cards }, true);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.embeds.length).toBeLessThanOrEqual(10);
    expect(messages[0]!.content).toMatch(/more parts? did not fit/);
  });

  it('never produces an empty message', () => {
    const [message] = valid({ cards: [] });
    expect(message!.content).toBe('Nothing to show.');
    const [empty] = valid({ cards: [{ title: '', fields: [{ name: '', value: [] }] }] });
    expect(empty!.embeds[0]!.title).toBe('\u200b');
    expect(empty!.embeds[0]!.fields).toEqual([{ name: '\u200b', value: '\u200b' }]);
  });

  it('stays within every limit for random replies (fuzz, fixed seed)', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const word = () =>
      ['G2', '@everyone', '**', '||', '`', 'é', '😀', '<@&1>', 'x'.repeat(Math.floor(random() * 3000))][
        Math.floor(random() * 9)
      ]!;
    const text = (): Text =>
      Array.from({ length: Math.floor(random() * 8) }, () =>
        random() < 0.2
          ? { spoiler: [word()] }
          : random() < 0.1
            ? { time: at, style: 'full' as const }
            : { text: word(), bold: random() < 0.5 },
      );
    for (let n = 0; n < 60; n++) {
      const cards: Card[] = Array.from({ length: Math.floor(random() * 15) }, () => ({
        title: text()
          .map((s) => (typeof s === 'object' && 'text' in s ? s.text : 'x'))
          .join(''),
        description: Array.from({ length: Math.floor(random() * 6) }, text),
        fields: Array.from({ length: Math.floor(random() * 40) }, () => ({ name: word(), value: text() })),
        footer: random() < 0.5 ? word() : undefined,
      }));
      const single = random() < 0.3;
      const messages = valid({ content: text(), cards, stale: random() < 0.5 }, single);
      if (single) expect(messages).toHaveLength(1);
    }
  });
});

describe('nonceFor', () => {
  it('is deterministic, at most 25 characters, and differs between keys and parts', () => {
    const key = 'reminder:series-123:15:discord:200000000000000001';
    expect(nonceFor(key)).toBe(nonceFor(key));
    expect(nonceFor(key).length).toBeLessThanOrEqual(25);
    expect(nonceFor(key)).not.toBe(nonceFor(`${key}x`));
    expect(nonceFor(key, 1)).not.toBe(nonceFor(key, 0));
  });
});
