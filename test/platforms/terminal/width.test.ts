/**
 * Every command's terminal reply fits the terminal: rendered at 80 columns (the width when the
 * output is not a terminal) and at a narrow 50, no line is wider, and wrapping loses no word.
 * The replies come from the real runtime against the local service at the commands' frozen instant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../../commands/index.ts';
import type { Reply } from '../../../src/bot/reply.ts';
import { renderReply, visibleWidth, wrapLine } from '../../../src/platforms/terminal/render.ts';
import { call, type Stack, startStack } from '../../commands/helpers.ts';
import { byStartThenId, worldSeries } from '../../commands/truth.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

/** Every command (and each /help page) with names from the world. */
function cases(): [string, Record<string, unknown>, string?][] {
  const world = stack.service.world;
  const all = worldSeries(world).sort(byStartThenId);
  const live = all.find((s) => s.lifecycle === 'live' && s.tier <= 2 && s.participants.length === 2)!;
  const upcoming = all.find((s) => s.lifecycle === 'upcoming' && s.tier <= 2 && s.casters.length > 0)!;
  const team = world.catalog.teamById.get(
    world.catalog.rosterById.get(live.participants[0]!.roster.id)!.team.id,
  )!;
  const tournament = world.tournamentAt(world.window(world.now()).tournaments[0]!).title;
  return [
    ['help', {}],
    ...commands.map((c): [string, Record<string, unknown>] => ['help', { command: c.name }]),
    ['series', {}],
    ['series', { when: 'live', limit: 10 }],
    ['series', { when: 'recent', limit: 10 }],
    ['live', {}],
    ['live', { series: String(live.id) }],
    ['schedule', {}],
    ['team', { team: team.name }],
    ['standings', { tournament }],
    ['casters', { series: String(upcoming.id) }],
    ['tournament', { tournament }],
    ['follow', {}, 'list'],
    ['settings', {}, 'show'],
  ];
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI sequences start with ESC
const ANSI = /\u001b\[[0-9;]*m/g;
const words = (text: string) => text.replace(/▌/g, ' ').split(/\s+/).filter(Boolean);

describe('terminal replies', () => {
  it('have no line wider than the width, at 80 and at 50 columns, and keep every word', async () => {
    const replies: [string, Reply][] = [];
    for (const [command, args, subcommand] of cases()) {
      const result = await call(stack, command, args, subcommand ? { subcommand } : {});
      expect(result.outcome, `/${command} ${JSON.stringify(args)}: ${result.text}`).toBe('ok');
      replies.push([`/${command} ${JSON.stringify(args)}`, result.reply]);
    }
    let lines = 0;
    let wrapped = 0;
    for (const [label, reply] of replies) {
      const options = { colour: true, timezone: 'Europe/Berlin', now: stack.clock.now() };
      const unlimited = renderReply(reply, { ...options, colour: false, width: 10_000 });
      for (const width of [80, 50]) {
        const text = renderReply(reply, { ...options, width });
        // Only a link wider than the line may pass it, alone on its line and whole.
        const wide = text
          .split('\n')
          .filter(
            (line) => visibleWidth(line) > width && !/^▌ <?https?:\/\/\S+$/.test(line.replace(ANSI, '')),
          );
        expect(wide, `${label} at ${width} columns`).toEqual([]);
        const plain = renderReply(reply, { ...options, colour: false, width });
        expect(words(plain), label).toEqual(words(unlimited));
        lines += text.split('\n').length;
        if (width === 80) wrapped += plain.split('\n').length - unlimited.split('\n').length;
      }
    }
    // Not vacuous: many lines were checked, and some did need wrapping at 80 columns.
    expect(lines).toBeGreaterThan(300);
    expect(wrapped).toBeGreaterThan(0);
  }, 120_000);
});

describe('wrapLine', () => {
  it('breaks at word boundaries, indents continuations, and cuts only a word longer than a line', () => {
    expect(wrapLine('one two three four five', 12, 2)).toEqual(['one two', '  three four', '  five']);
    expect(wrapLine('short', 80)).toEqual(['short']);
    expect(wrapLine('abcdefghijkl', 5)).toEqual(['abcde', 'fghij', 'kl']);
  });

  it('never cuts a link: one wider than the line stands whole on a line of its own', () => {
    const url = 'http://127.0.0.1:18787/calendar/RbV9TlEQ2wUoNtEjAE3npXavlkF4h1EMJE0vP22ge7M.ics';
    expect(wrapLine(url, 78)).toEqual([url]);
    expect(wrapLine(`Your calendar: ${url} keep it`, 78, 2)).toEqual(['Your calendar:', url, '  keep it']);
    expect(wrapLine(`Website <${url}>`, 40)).toEqual(['Website', `<${url}>`]);
    // Other words longer than a line are still cut.
    expect(wrapLine('x'.repeat(90), 78)).toEqual(['x'.repeat(78), 'x'.repeat(12)]);
  });

  it('never breaks inside a bracketed name that fits a line', () => {
    const line = 'Participants  Iron Pilots, Nova Krakens 16-22 Mar 2026 (SP, tier 1), Azure Otters';
    const wrapped = wrapLine(line, 60, 2);
    expect(wrapped).toEqual([
      'Participants  Iron Pilots, Nova Krakens 16-22 Mar 2026',
      '  (SP, tier 1), Azure Otters',
    ]);
    expect(wrapLine('a [spoiler hidden] b', 17)).toEqual(['a', '[spoiler hidden]', 'b']);
    // A group wider than a line breaks as words do.
    expect(wrapLine('a (one two three) b', 8)).toEqual(['a (one', 'two', 'three) b']);
  });

  it("keeps a wrapped line's own leading spaces on its first line (the banner's data line)", () => {
    expect(wrapLine('  data    one two three', 20, 10)).toEqual(['  data    one two', '          three']);
    expect(wrapLine('data    one two three', 20, 10)[0]).toBe('data    one two');
  });

  it('closes a style at a break and opens it again on the next line', () => {
    const bold = '\u001b[1mIron Pilots\u001b[0m wins';
    expect(wrapLine(bold, 6)).toEqual(['\u001b[1mIron\u001b[0m', '\u001b[1mPilots\u001b[0m', 'wins']);
  });
});
