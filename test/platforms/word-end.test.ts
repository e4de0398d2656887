import { describe, expect, it } from 'vitest';
import { renderReply as renderDiscord } from '../../src/platforms/discord/render.ts';
import { wordEnd } from '../../src/platforms/discord/render-text.ts';
import { truncateMrkdwn } from '../../src/platforms/slack/mrkdwn.ts';
import { renderReply as renderSlack } from '../../src/platforms/slack/render.ts';

/** A hint far past every limit, of whole words only ("narrow0 narrow1 ..."). */
const words = Array.from({ length: 2000 }, (_, i) => `narrow${i}`);
const long = words.join(' ');

describe('cutting text to a platform limit', () => {
  it('ends on a whole word followed by an ellipsis, never mid-word', () => {
    expect(wordEnd('Narrow with gam', 'Narrow with game: or tier:')).toBe('Narrow with');
    expect(wordEnd('Narrow with', 'Narrow with game:')).toBe('Narrow with');
    // One very long word: cut inside it rather than dropping everything.
    expect(wordEnd('abcdefgh', 'abcdefghijkl')).toBe('abcdefgh');
    const slack = truncateMrkdwn(long, 3000);
    expect(slack.length).toBeLessThanOrEqual(3000);
    expect(slack.endsWith('…')).toBe(true);
    expect(words).toContain(slack.slice(0, -1).split(' ').at(-1));
  });

  it('cuts a Discord footer and a Slack section on a word boundary', () => {
    const reply = { cards: [{ title: 'Schedule', description: [[long]], footer: long }] };
    const embeds = renderDiscord(reply).flatMap((m) => m.embeds);
    const cutTexts = embeds.flatMap((e) => [e.footer?.text, e.description]).filter((t) => t?.endsWith('…'));
    expect(cutTexts.length).toBeGreaterThan(0);
    for (const text of cutTexts as string[]) {
      expect(text.endsWith('…')).toBe(true);
      expect(words).toContain(text.slice(0, -1).split(/\s/).at(-1));
    }
    const blocks = renderSlack(reply).blocks;
    const section = blocks.find((b) => b.type === 'section') as { text: { text: string } };
    const last = section.text.text.split(/\s/).at(-1)!;
    expect(words).toContain(last.replace(/…$/, ''));
  });
});
