import { describe, expect, it } from 'vitest';
import type { Card, Reply, Text } from '../../../src/bot/reply.ts';
import { STALE_NOTICE } from '../../../src/bot/reply.ts';
import { escapeMrkdwn, SPOILER_MASK, truncateMrkdwn } from '../../../src/platforms/slack/mrkdwn.ts';
import {
  LINK_ACTION,
  REVEAL_ACTION,
  renderReply,
  type SlackMessage,
} from '../../../src/platforms/slack/render.ts';
import { blockKitProblems } from '../../fakes/slack/limits.ts';

type Json = Record<string, unknown>;

/** Every mrkdwn string in a message (section text, fields, context elements) plus the fallback text. */
function mrkdwnTexts(message: SlackMessage): string[] {
  const texts = [message.text];
  for (const block of blocksOf(message)) {
    const text = block.text as Json | undefined;
    if (text?.type === 'mrkdwn') texts.push(String(text.text));
    for (const field of (block.fields as Json[] | undefined) ?? []) texts.push(String(field.text));
    for (const element of (block.elements as Json[] | undefined) ?? [])
      if (element.type === 'mrkdwn') texts.push(String(element.text));
    const accessory = block.accessory as Json | undefined;
    if (typeof accessory?.value === 'string') texts.push(accessory.value);
  }
  return texts;
}

/** A control sequence that would ping someone or link somewhere not chosen by the renderer. */
const PING = /<!(channel|here|everyone)|<@[UW]|<!subteam|(?<![\u2060])@(here|channel|everyone)\b/i;

function blocksOf(message: SlackMessage): Json[] {
  return message.blocks as unknown as Json[];
}

function buttons(message: SlackMessage): Json[] {
  const found: Json[] = [];
  for (const block of blocksOf(message)) {
    if (block.accessory) found.push(block.accessory as Json);
    if (block.type === 'actions') found.push(...(block.elements as Json[]));
  }
  return found;
}

const at = new Date('2025-06-01T18:00:00Z');

describe('escapeMrkdwn', () => {
  it('turns &, < and > into entities and defuses @here-like words', () => {
    expect(escapeMrkdwn('<!channel> & <@U123> @here @Everyone')).toBe(
      '&lt;!channel&gt; &amp; &lt;@U123&gt; @\u2060here @\u2060Everyone',
    );
  });

  it('leaves ordinary text alone', () => {
    expect(escapeMrkdwn('Team Liquid vs G2 (Bo3)')).toBe('Team Liquid vs G2 (Bo3)');
  });
});

describe('truncateMrkdwn', () => {
  it('never cuts a <...> sequence or an entity in half', () => {
    const text = `${'a'.repeat(10)}<https://example.com|link> &amp; more`;
    const cut = truncateMrkdwn(text, 15);
    expect(cut).toBe(`${'a'.repeat(10)}…`);
    const entity = truncateMrkdwn(`${'b'.repeat(10)}&amp;xyz`, 14);
    expect(entity).toBe(`${'b'.repeat(10)}…`);
    expect(truncateMrkdwn('short', 10)).toBe('short');
  });
});

describe('renderReply', () => {
  it('renders a card as a header, sections, fields and a context footer', () => {
    const message = renderReply({
      cards: [
        {
          title: 'Upcoming series',
          description: [['Starts ', { time: at, style: 'full' }, ' ', { text: 'Bo3', bold: true }]],
          fields: [
            { name: 'Tournament', value: ['Major'], inline: true },
            { name: 'Stage', value: ['Playoffs'], inline: true },
          ],
          footer: 'Data: local service',
          url: 'https://example.com/series/1?a=1&b=2',
        },
      ],
    });
    expect(blockKitProblems(message)).toEqual([]);
    const [header, section, fields, context] = blocksOf(message);
    expect(header).toMatchObject({ type: 'header', text: { type: 'plain_text', text: 'Upcoming series' } });
    expect((section!.text as Json).text).toBe(
      `Starts <!date^${at.getTime() / 1000}^{date_short_pretty} {time}|Sun 1 Jun 2025, 18:00 UTC> *Bo3*`,
    );
    expect(fields?.fields).toEqual([
      { type: 'mrkdwn', text: '*Tournament*\nMajor', verbatim: true },
      { type: 'mrkdwn', text: '*Stage*\nPlayoffs', verbatim: true },
    ]);
    expect(context).toMatchObject({
      type: 'context',
      elements: [
        { type: 'mrkdwn', text: 'Data: local service' },
        { type: 'mrkdwn', text: '<https://example.com/series/1?a=1&amp;b=2|Open on the web>' },
      ],
    });
    expect(message.text).toContain('Upcoming series');
  });

  it('maps every time style to its date token with a UTC fallback', () => {
    const line: Text = [
      { time: at, style: 'relative' },
      ' ',
      { time: at, style: 'time' },
      ' ',
      { time: at, style: 'date' },
    ];
    const text = (blocksOf(renderReply({ cards: [{ title: 't', description: [line] }] }))[1]!.text as Json)
      .text;
    const unix = at.getTime() / 1000;
    expect(text).toBe(
      `<!date^${unix}^{ago}|Sun 1 Jun 2025, 18:00 UTC> <!date^${unix}^{time}|18:00 UTC> <!date^${unix}^{date_short_pretty}|Sun 1 Jun 2025>`,
    );
  });

  it('lets no name from data ping anyone or inject a link', () => {
    const evil = '<!channel> <!here|here> @here @everyone <@U0ADMIN> <https://evil.example|click> &lt;';
    const reply: Reply = {
      content: [evil],
      cards: [
        {
          title: evil,
          description: [
            [evil],
            [{ text: evil, bold: true }],
            [{ spoiler: [evil] }],
            [{ link: 'https://ok.example', label: evil }],
          ],
          fields: [{ name: evil, value: [evil], inline: true }],
          table: { columns: [{ header: evil }], rows: [[[evil]], [[{ spoiler: [evil] }]]] },
          footer: evil,
          buttons: [{ label: evil, url: 'https://ok.example' }],
        },
      ],
      stale: true,
    };
    const message = renderReply(reply);
    expect(blockKitProblems(message)).toEqual([]);
    const texts = mrkdwnTexts(message);
    expect(texts.length).toBeGreaterThan(8);
    for (const text of texts) expect(text).not.toMatch(PING);
    // The only link is the one the command chose; the injected one is inert text.
    expect(texts.join('\n')).not.toContain('<https://evil.example');
    expect(texts.join('\n')).toContain('&lt;https://evil.example|click&gt;');
    // Slack must not auto-parse names into mentions or channel links either.
    for (const block of blocksOf(message)) {
      const text = block.text as Json | undefined;
      if (text?.type === 'mrkdwn') expect(text.verbatim).toBe(true);
      for (const field of (block.fields as Json[] | undefined) ?? []) expect(field.verbatim).toBe(true);
      for (const element of (block.elements as Json[] | undefined) ?? [])
        if (element.type === 'mrkdwn') expect(element.verbatim, JSON.stringify(element)).toBe(true);
    }
    // The negative control: the pattern does catch a raw ping, so the checks above can fail.
    expect('<!channel>').toMatch(PING);
    expect('hey @here').toMatch(PING);
  });

  it('mentions a role only when the reply allows it and it is a user group id', () => {
    const message = renderReply({
      content: [{ role: 'S0ROLE1' }, ' ', { role: 'S0OTHER' }, ' ', { role: 'here' }],
      cards: [],
      mentionRoles: ['S0ROLE1', 'here'],
    });
    const text = (blocksOf(message)[0]!.text as Json).text as string;
    expect(text).toBe('<!subteam^S0ROLE1> @S0OTHER @\u2060here');
  });

  it('hides spoilers behind a Reveal button that carries the revealed text', () => {
    const message = renderReply({
      cards: [
        {
          title: 'Result',
          description: [
            ['Winner: ', { spoiler: [{ text: 'Team Spirit', bold: true }, ' 2-1'] }],
            ['Played in Berlin'],
          ],
          fields: [{ name: 'Score', value: [{ spoiler: ['2-1'] }], inline: true }],
          table: {
            columns: [{ header: 'Team' }, { header: 'W', align: 'right' }],
            rows: [[['Spirit'], [{ spoiler: ['3'] }]]],
          },
        },
      ],
    });
    expect(blockKitProblems(message)).toEqual([]);
    const all = JSON.stringify(message.blocks.map((b) => ({ ...b, accessory: undefined })));
    expect(all).not.toContain('Team Spirit');
    expect(all).not.toContain('2-1');
    expect(all).toContain(SPOILER_MASK);
    expect(message.text).not.toContain('Spirit');
    const reveal = buttons(message).filter((b) => String(b.action_id).startsWith(REVEAL_ACTION));
    expect(reveal).toHaveLength(3);
    expect(reveal.map((b) => b.value)).toEqual([
      'Winner: *Team Spirit* 2-1',
      '*Score*\n2-1',
      expect.stringMatching(/Spirit\s+3/),
    ]);
    // The line without a spoiler has no button.
    const plain = blocksOf(message).find((b) => (b.text as Json | undefined)?.text === 'Played in Berlin');
    expect(plain?.accessory).toBeUndefined();
  });

  it('gives every button in a message its own action id', () => {
    const card: Card = {
      title: 'c',
      description: [[{ spoiler: ['a'] }], [{ spoiler: ['b'] }]],
      buttons: [
        { label: 'Stream', url: 'https://twitch.tv/x' },
        { label: 'Bad', url: 'javascript:alert(1)' },
      ],
    };
    const message = renderReply({ cards: [card, card] });
    const ids = buttons(message).map((b) => b.action_id);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    expect(ids.filter((id) => String(id).startsWith(LINK_ACTION))).toHaveLength(2);
    expect(JSON.stringify(message)).not.toContain('javascript:');
  });

  it('splits long text into sections of at most 3000 characters', () => {
    const lines: Text[] = Array.from({ length: 100 }, (_, i) => [`line ${i} ${'x'.repeat(90)}`]);
    const message = renderReply({ cards: [{ title: 'Long', description: lines }] });
    expect(blockKitProblems(message)).toEqual([]);
    const sections = blocksOf(message).filter((b) => b.type === 'section');
    expect(sections.length).toBeGreaterThanOrEqual(4);
    const joined = sections.map((s) => (s.text as Json).text).join('\n');
    expect(joined).toContain('line 0 ');
    expect(joined).toContain('line 99 ');
  });

  it('cuts one over-long line and an over-long title instead of failing', () => {
    const message = renderReply({ cards: [{ title: 'T'.repeat(400), description: [['y'.repeat(10_000)]] }] });
    expect(blockKitProblems(message)).toEqual([]);
    expect((blocksOf(message)[0]!.text as Json).text).toHaveLength(150);
  });

  it('puts at most 10 fields in a section and gives non-inline fields their own section', () => {
    const fields = Array.from({ length: 23 }, (_, i) => ({ name: `F${i}`, value: [`v${i}`], inline: true }));
    fields.splice(5, 0, { name: 'Wide', value: ['whole row'], inline: false });
    const message = renderReply({ cards: [{ title: 'Fields', fields }] });
    expect(blockKitProblems(message)).toEqual([]);
    const counts = blocksOf(message)
      .filter((b) => b.type === 'section')
      .map((b) => (b.fields as Json[] | undefined)?.length ?? 0);
    expect(counts).toEqual([5, 0, 10, 8]);
  });

  it('splits a large table over several code-block sections, each with the header row', () => {
    const rows: Text[][] = Array.from({ length: 300 }, (_, i) => [[`Team number ${i}`], [String(i)]]);
    const message = renderReply({
      cards: [
        {
          title: 'Standings',
          table: { columns: [{ header: 'Team' }, { header: 'Pts', align: 'right' }], rows },
        },
      ],
    });
    expect(blockKitProblems(message)).toEqual([]);
    const sections = blocksOf(message)
      .filter((b) => b.type === 'section')
      .map((b) => String((b.text as Json).text));
    expect(sections.length).toBeGreaterThan(2);
    for (const text of sections) {
      expect(text.startsWith('```\nTeam')).toBe(true);
      expect(text.endsWith('```')).toBe(true);
    }
    expect(sections.join('\n')).toContain('Team number 299');
    // Right-aligned numbers line up under the header.
    expect(sections[0]).toMatch(/Team number 0 +0\n/);
  });

  it('keeps a reply with too many cards within 50 blocks and says what was left out', () => {
    const cards: Card[] = Array.from({ length: 40 }, (_, i) => ({
      title: `Card ${i}`,
      description: [[`text ${i}`]],
    }));
    const message = renderReply({ cards, stale: true });
    expect(blockKitProblems(message)).toEqual([]);
    expect(message.blocks.length).toBeLessThanOrEqual(50);
    expect(message.blocks.length).toBeGreaterThanOrEqual(48);
    const texts = mrkdwnTexts(message).join('\n');
    expect(texts).toMatch(/Shortened to fit Slack: \d+ more blocks not shown/);
    expect(texts).toContain(STALE_NOTICE);
    expect(blocksOf(message).at(-1)!.type).toBe('context');
  });

  it('renders images by URL, and a picture that needs an upload as its description', () => {
    const message = renderReply({
      cards: [
        { title: 'a', image: { url: 'https://img.example/a.png', alt: 'Bracket' } },
        { title: 'b', image: { png: new Uint8Array([1]), name: 'b.png', alt: 'Standings <!here>' } },
        { title: 'c', image: { url: 'file:///etc/passwd', alt: 'nope' } },
      ],
    });
    expect(blockKitProblems(message)).toEqual([]);
    const images = blocksOf(message).filter((b) => b.type === 'image');
    expect(images).toEqual([{ type: 'image', image_url: 'https://img.example/a.png', alt_text: 'Bracket' }]);
    expect(mrkdwnTexts(message).join('\n')).toContain('🖼 Standings &lt;!here&gt;');
  });

  it('always stays within every limit, whatever the reply (generated replies)', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const word = () =>
      ['<!here>', '&', 'Team', 'x'.repeat(Math.floor(random() * 4000)), '@channel', '|', '>'][
        Math.floor(random() * 7)
      ]!;
    const line = (): Text =>
      Array.from({ length: 1 + Math.floor(random() * 5) }, () =>
        random() < 0.2
          ? { spoiler: [word()] }
          : random() < 0.2
            ? { time: at, style: 'full' as const }
            : word(),
      );
    for (let run = 0; run < 40; run += 1) {
      const cards: Card[] = Array.from({ length: 1 + Math.floor(random() * 12) }, () => ({
        title: word(),
        description: Array.from({ length: Math.floor(random() * 8) }, line),
        fields: Array.from({ length: Math.floor(random() * 14) }, () => ({
          name: word(),
          value: line(),
          inline: random() < 0.7,
        })),
        table:
          random() < 0.3
            ? {
                columns: [{ header: word() }, { header: 'n', align: 'right' as const }],
                rows: Array.from({ length: 40 }, () => [line(), ['1']]),
              }
            : undefined,
        footer: random() < 0.5 ? word() : undefined,
        buttons: random() < 0.3 ? [{ label: word(), url: 'https://example.com' }] : undefined,
      }));
      const message = renderReply({
        content: random() < 0.5 ? line() : undefined,
        cards,
        stale: random() < 0.5,
      });
      expect(blockKitProblems(message)).toEqual([]);
      for (const text of mrkdwnTexts(message)) expect(text).not.toMatch(PING);
    }
  });
});
