/**
 * A busy day's digest names the exact `/schedule` command (day and page) that
 * shows the rest, and the series it promises is what that command, run, shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainText, replyText, type Text } from '../../src/bot/reply.ts';
import { translator } from '../../src/i18n/i18n.ts';
import { digestReply } from '../../src/notify/cards.ts';
import { call, type Stack, startStack, tenantWith } from '../commands/helpers.ts';
import { byStartThenId, matchupOf, teamNameOf, worldSeries } from '../commands/truth.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

/** The day's series a default channel gets (tiers 1 and 2, every game), as the world has them. */
function dayOf(date: string) {
  return worldSeries(stack.service.world)
    .filter((s) => s.tier <= 2 && s.start!.slice(0, 10) === date)
    .sort(byStartThenId);
}

describe("the digest's hint on a busy day", () => {
  it('names a /schedule command with day and page that shows the first series the digest left out', async () => {
    const date = stack.clock.now().toISOString().slice(0, 10);
    const day = dayOf(date);
    expect(day.length).toBeGreaterThan(100);
    const data = stack.client.forCaller({ priority: 'interactive', deadlineMs: 5000 });
    await stack.names.ensureSeriesLabels(data, day);
    const reply = digestReply(day, stack.names, { spoilers: 'show', t: translator('en') }, date);
    const hint = reply.cards[0]!.description!;
    // The hint, the command, a blank line, then the first tournament's name in bold.
    expect(hint).toHaveLength(4);
    const command = plainText(hint[1]!.slice(0, 1) as Text);
    const match = /^\/schedule day:(\d{4}-\d{2}-\d{2}) page:(\d+)$/.exec(command);
    expect(match, `a command a user can type: ${command}`).not.toBeNull();
    expect(match![1]).toBe(date);

    // The promised series: the first of the day (in start order) that no digest table lists.
    const rows = reply.cards
      .flatMap((card) => card.table?.rows ?? [])
      .map((row) => ({ at: plainText(row[0]!), match: plainText(row[1]!) }));
    const world = stack.service.world;
    // A two-sided series' row names both teams; a lobby's row ("16-team lobby top: A 38, B 33, ...")
    // names its size and its leaders, each one of its teams.
    const isListed = (s: (typeof day)[number]) => {
      const names = s.participants.map((p) => teamNameOf(world, p.roster.id));
      const lobby = `${names.length}-team lobby top: `;
      return rows.some(
        (r) =>
          r.at === new Date(s.start!).toISOString() &&
          (names.length > 2 && r.match.startsWith(lobby)
            ? r.match
                .slice(lobby.length)
                .split(', ')
                .every((entry) => names.some((n) => entry.startsWith(`${n} `)))
            : names.every((n) => r.match.includes(n))),
      );
    };
    const missing = day.filter((s) => !isListed(s));
    expect(missing.length).toBeGreaterThan(0);
    const promised = missing[0]!;
    const promisedName = matchupOf(stack.service.world, promised);
    expect(plainText(hint[0]!)).toContain(promisedName);
    expect(plainText(hint[0]!)).toContain(`${day.length - missing.length} of ${day.length} series here`);

    // Typed as it is, by the tenant the digest was for: the page shows that series.
    const tenant = await tenantWith(stack);
    const result = await call(stack, 'schedule', { day: match![1], page: Number(match![2]) }, { tenant });
    expect(result.outcome, result.text).toBe('ok');
    expect(result.text).toContain(`Page ${match![2]} of`);
    const lines = result.text.split('\n');
    const names = promised.participants.map((p) => teamNameOf(world, p.roster.id));
    const shows = (l: string) =>
      l.startsWith(new Date(promised.start!).toISOString()) && names.every((n) => l.includes(n));
    expect(lines.some(shows), `page ${match![2]} shows ${promisedName}`).toBe(true);
    // The page before it (if any) does not: the hint names the first page that does.
    if (Number(match![2]) > 1) {
      const before = await call(
        stack,
        'schedule',
        { day: match![1], page: Number(match![2]) - 1 },
        { tenant },
      );
      expect(before.text.split('\n').some(shows)).toBe(false);
    }
    expect(replyText(reply)).not.toContain('shows the whole day');
  });
});

describe("the digest's title and event column", () => {
  it('heads the digest with the day alone, the first tournament under it in bold, and names bracket rounds', async () => {
    const world = stack.service.world;
    const all = worldSeries(world);
    // A day with playoffs (bracket series) for a default channel.
    const days = [...new Set(all.map((s) => s.start!.slice(0, 10)))].sort();
    const date = days.find((d) =>
      all.some((s) => s.bracket_position && s.tier <= 2 && s.start!.startsWith(d)),
    )!;
    expect(date).toBeDefined();
    const day = dayOf(date);
    const data = stack.client.forCaller({ priority: 'interactive', deadlineMs: 5000 });
    await stack.names.ensureSeriesLabels(data, day);
    const stageSeries = (id: number) => all.filter((s) => s.substage.id === id);
    const reply = digestReply(day, stack.names, { spoilers: 'show', t: translator('en') }, date, stageSeries);
    const first = reply.cards[0]!;
    expect(first.title).toMatch(/^Today's series \([^)]*\)$/);
    const firstTournament = stack.names.tournament(day[0]!.tournament.id)!.title;
    expect(first.title).not.toContain(firstTournament);
    const heading = first.description!.at(-1)!;
    expect(plainText(heading)).toContain(firstTournament);
    expect(heading[0]).toMatchObject({ bold: true });
    // The event column: a bracket series' round ("Upper-bracket final"), never the bracket's title on every row.
    const events = reply.cards.flatMap((card) => card.table?.rows ?? []).map((row) => plainText(row[2]!));
    const rounds = events.filter((e) => /bracket|Grand final/i.test(e));
    expect(rounds.length).toBeGreaterThan(0);
    expect(events).not.toContain('Playoffs Bracket');
    for (const e of rounds)
      expect(e).toMatch(
        /^(Upper-bracket (quarterfinals|semifinals|final)|Lower-bracket final|(Upper|Lower) bracket · round \d|Grand final)$/,
      );
  });
});
