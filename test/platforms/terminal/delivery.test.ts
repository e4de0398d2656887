import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineCommand } from '../../../src/bot/command.ts';
import type { NameIndex } from '../../../src/bot/names.ts';
import { COLOURS, type Reply } from '../../../src/bot/reply.ts';
import { type DataClient, Runtime } from '../../../src/bot/runtime.ts';
import { Clock } from '../../../src/core/clock.ts';
import { TERMINAL_TENANT_ID } from '../../../src/core/tenant-id.ts';
import { DeliveryError } from '../../../src/notify/delivery-error.ts';
import { type Chat, startChat } from '../../../src/platforms/terminal/chat.ts';
import { TerminalDelivery } from '../../../src/platforms/terminal/delivery.ts';
import { captureLogs, type TempStore, tempStore } from '../../bot/helpers.ts';

const card = (title: string, score: string): Reply => ({
  cards: [
    {
      title,
      colour: COLOURS.live,
      description: [
        ['Score ', { spoiler: [score] }, ' at ', { time: new Date('2026-01-01T20:00:00Z'), style: 'time' }],
      ],
    },
  ],
});
const target = { platform: 'terminal' as const, tenantId: TERMINAL_TENANT_ID, channelId: 'esports' };

/** Collects what the chat writes, and lets the test wait for some text to appear. */
function collector(stream: PassThrough) {
  let text = '';
  stream.on('data', (chunk) => {
    text += chunk;
  });
  return {
    text: () => text,
    async waitFor(needle: string) {
      for (let i = 0; i < 200 && !text.includes(needle); i++) await new Promise((r) => setTimeout(r, 10));
      expect(text).toContain(needle);
    },
  };
}

describe('TerminalDelivery in the chat', () => {
  let temp: TempStore;
  let input: PassThrough;
  let output: PassThrough & { isTTY?: boolean };
  let chat: Chat;
  let delivery: TerminalDelivery;
  let out: ReturnType<typeof collector>;

  beforeEach(async () => {
    const logs = captureLogs();
    temp = await tempStore(logs.logger);
    await temp.store.save(TERMINAL_TENANT_ID, {
      ...(await temp.store.get(TERMINAL_TENANT_ID)),
      timezone: 'Asia/Tokyo',
    });
    const clock = new Clock({ start: new Date('2026-01-01T19:00:00Z'), frozen: true });
    const ping = defineCommand({
      name: 'ping',
      description: 'Pong',
      run: async () => ({ cards: [{ title: 'pong' }] }),
    });
    const runtime = new Runtime({
      commands: [ping],
      // /ping reads neither: stand-ins for the client and the name index.
      client: { forCaller: () => ({ servedStale: false }) } as unknown as DataClient,
      names: { search: () => [] } as unknown as NameIndex,
      tenants: temp.store,
      clock,
      logger: logs.logger,
    });
    input = new PassThrough();
    output = Object.assign(new PassThrough(), { columns: 80, isTTY: true });
    out = collector(output);
    chat = startChat(
      { runtime, tenants: temp.store, clock, logger: logs.logger },
      { input, output, interactive: true, colour: false, prompt: '> ' },
    );
    delivery = new TerminalDelivery();
    await delivery.attach((reply, header, update) => chat.showReply(reply, header, update));
  });
  afterEach(async () => {
    chat.close();
    await chat.closed;
    await temp.cleanup();
  });

  it('numbers messages, ids unique across runs, and reprints an edit marked as an update, in the tenant time zone', async () => {
    const first = await delivery.post(target, card('Spirit vs NAVI', '1-0'), 'live:1');
    const second = await delivery.post(target, card('G2 vs FaZe', '0-0'), 'live:2');
    expect(first.messageId).toMatch(/^[0-9a-f]{6}\.1$/);
    expect(second.messageId).toBe(first.messageId.replace(/1$/, '2'));
    // The next run (a restart) numbers from 1 again, but never reuses an id.
    const nextRun = new TerminalDelivery(() => undefined);
    const after = await nextRun.post(target, card('Liquid vs Vitality', '0-0'), 'live:3');
    expect(after.messageId).toMatch(/\.1$/);
    expect(after.messageId).not.toBe(first.messageId);
    await delivery.edit(target, first.messageId, card('Spirit vs NAVI', '2-0'));
    const text = out.text();
    expect(text).toContain('#esports · message 1\n▌ Spirit vs NAVI\n▌ Score [spoiler hidden] at 05:00');
    // The edit is one line under the message's name: the card's title and what changed.
    expect(text).toContain('#esports ↻ message 1 · Score [spoiler hidden] at 05:00\n');
    expect(text).not.toContain('2-0');
  });

  it("names the person's own DMs as such, not as a channel", async () => {
    const dm = { ...target, channelId: 'dm:local' };
    const first = await delivery.post(dm, card('Spirit vs NAVI', '1-0'), 'k-dm');
    await delivery.edit(dm, first.messageId, card('Spirit vs NAVI', '2-0'));
    const text = out.text();
    expect(text).toContain('your DMs · message 1\n▌ Spirit vs NAVI');
    expect(text).toContain('your DMs ↻ message 1 · Score');
    expect(text).not.toContain('#dm:');
  });

  it('shows a DM that repeats a channel card once: one line naming that message, and no repeated updates', async () => {
    const dm = { ...target, channelId: 'dm:local' };
    const channel = await delivery.post(target, card('Spirit vs NAVI', '1-0'), 'live:1');
    const mine = await delivery.post(dm, card('Spirit vs NAVI', '1-0'), 'live:1:dm');
    await delivery.edit(target, channel.messageId, card('Spirit vs NAVI', '2-0'));
    await delivery.edit(dm, mine.messageId, card('Spirit vs NAVI', '2-0'));
    // A DM that differs from every channel card (another series) is shown whole.
    await delivery.post(dm, card('G2 vs FaZe', '0-0'), 'live:2:dm');
    const text = out.text();
    expect(text.match(/▌ Spirit vs NAVI/g)).toHaveLength(1);
    expect(text).toContain(
      'your DMs · message 2 · Also sent to you: message 1 (#esports) · Spirit vs NAVI\n',
    );
    expect(text.match(/↻ message/g)).toHaveLength(1);
    expect(text).toContain('#esports ↻ message 1 · Score');
    expect(text).toContain('your DMs · message 3\n▌ G2 vs FaZe');
    // The reverse order too: a channel card after the same DM is one line.
    await delivery.post(dm, card('Liquid vs Vitality', '0-0'), 'live:4:dm');
    await delivery.post(target, card('Liquid vs Vitality', '0-0'), 'live:4');
    expect(out.text()).toContain(
      '#esports · message 5 · Same as message 4 (your DMs) · Liquid vs Vitality\n',
    );
    expect(out.text().match(/▌ Liquid vs Vitality/g)).toHaveLength(1);
  });

  it('prints an edit of a card from before a restart whole, named as such', async () => {
    await delivery.edit(target, 'abc123.4', card('Spirit vs NAVI', '2-1'));
    const text = out.text();
    expect(text).toContain('#esports · a message from before the restart (updated)\n▌ Spirit vs NAVI');
    expect(text).toContain('Score');
  });

  it('shows an edit only when the score, the map or a result changed: a map that ended as a line that stays, other changes rewritten in place', async () => {
    const live = (o: { clock: string; now: string; series: string; games?: [string, string][] }): Reply => ({
      cards: [
        {
          title: 'Spirit vs NAVI',
          description: [['PM Masters · Bo3'], [`Series: ${o.series}`]],
          fields: [
            { name: o.now, value: [`Spirit 12–9 NAVI · ${o.clock}`] },
            { name: 'Net worth', value: [`Spirit +${o.clock.length * 100}`] },
            ...(o.games ?? []).map(([name, result]) => ({ name, value: [result] })),
            { name: 'Stream: Caster One', value: [`online, ${o.clock} viewers`] },
          ],
        },
      ],
    });
    const posted = await delivery.post(
      target,
      live({ clock: '10:00', now: 'Now: game 1 · Citadel', series: '0–0' }),
      'live:9',
    );
    const before = out.text().length;
    // Clock, in-game score, economy and viewers tick: nothing is printed.
    for (const clock of ['10:30', '11:00', '11:30'])
      await delivery.edit(
        target,
        posted.messageId,
        live({ clock, now: 'Now: game 1 · Citadel', series: '0–0' }),
      );
    expect(out.text().length).toBe(before);
    // Map 1 ends and map 2 starts: one line naming the new series score, map and result.
    await delivery.edit(
      target,
      posted.messageId,
      live({
        clock: '00:10',
        now: 'Now: game 2 · Foundry',
        series: '1–0',
        games: [['Game 1 · Citadel', '13–9 Spirit']],
      }),
    );
    const first = out.text().slice(before);
    // A line that stays is printed as a message is: its header, then what changed.
    expect(first).toContain(
      '#esports ↻ message 1\nSeries: 1–0 · Game 1 · Citadel: 13–9 Spirit · Now: game 2 · Foundry\n',
    );
    expect(first.split('\n').filter((line) => line.includes('message 1'))).toHaveLength(1);
    // The next map's end is a line of its own: the first stays on the screen (no cursor up).
    await delivery.edit(
      target,
      posted.messageId,
      live({
        clock: '00:40',
        now: 'Now: game 2 · Foundry',
        series: '1–1',
        games: [
          ['Game 1 · Citadel', '13–9 Spirit'],
          ['Game 2 · Foundry', '8–13 NAVI'],
        ],
      }),
    );
    const second = out.text().slice(before + first.length);
    expect(second).not.toContain('\u001b[1A');
    expect(second).toContain('#esports ↻ message 1\nSeries: 1–1 · Game 2 · Foundry: 8–13 NAVI\n');
    // A change that ends no map (the next game starts) is one short line the chat may rewrite in
    // place: the lines above it (map results) are not replaced (no cursor up).
    await delivery.edit(
      target,
      posted.messageId,
      live({
        clock: '00:01',
        now: 'Now: game 3 · Dunes',
        series: '1–1',
        games: [
          ['Game 1 · Citadel', '13–9 Spirit'],
          ['Game 2 · Foundry', '8–13 NAVI'],
        ],
      }),
    );
    const third = out.text().slice(before + first.length + second.length);
    expect(third).not.toContain('\u001b[1A');
    expect(third).toContain('#esports ↻ message 1 · Spirit vs NAVI · Now: game 3 · Dunes\n');
    // Without a new series score, a map's result is named with the card's title.
    await delivery.edit(
      target,
      posted.messageId,
      live({
        clock: '00:40',
        now: 'Now: game 3 · Dunes',
        series: '1–1',
        games: [
          ['Game 1 · Citadel', '13–9 Spirit'],
          ['Game 2 · Foundry', '8–14 NAVI'],
        ],
      }),
    );
    expect(out.text()).toContain('#esports ↻ message 1\nSpirit vs NAVI · Game 2 · Foundry: 8–14 NAVI\n');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: cursor and style sequences start with ESC
    const escapes = /\u001b\[[0-9;]*[A-Za-z]/g;
    for (const line of out.text().split('\n'))
      expect(line.replace(escapes, '').length).toBeLessThanOrEqual(80);
  });

  it('prints a notification above the prompt and redraws what the user was typing', async () => {
    input.write('/pi');
    await out.waitFor('/pi');
    await delivery.post(target, card('Reminder', '0-0'), 'reminder:1');
    const text = out.text();
    const notification = text.lastIndexOf('▌ Reminder');
    expect(notification).toBeGreaterThan(-1);
    // After the notification the prompt comes back with the half-typed line intact.
    expect(text.slice(notification)).toMatch(/> \/pi/);
    input.write('ng\n');
    await out.waitFor('▌ pong');
  });

  it('refuses another tenant permanently, and holds notifications until a chat is attached', async () => {
    const error = await delivery
      .post({ ...target, tenantId: 'discord:1' }, card('x', '1'), 'k')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect((error as DeliveryError).kind).toBe('permanent');
    const detached = new TerminalDelivery();
    const shown: string[] = [];
    await detached.post(target, card('Early', '0'), 'k1');
    expect(shown).toEqual([]);
    await detached.attach((_reply, header) => {
      shown.push(header);
    });
    expect(shown).toEqual(['#esports · message 1']);
  });
});
