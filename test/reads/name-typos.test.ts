/**
 * A misspelt name asked before the names are loaded (a new store, `matchday ask`, a bot just
 * started) against a service read at 5 requests/s: answered within the command's time from the
 * service's own search (src/bot/name-load.ts `lookupNear`), never after the whole index (about 55
 * requests) nor with a "not found" the loaded index would not give; every name it offers is
 * accepted by the command that offered it, before the names are loaded and after.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import { typoPieces } from '../../src/bot/name-load.ts';
import { createNameIndex, type NameIndex } from '../../src/bot/names.ts';
import { replyText } from '../../src/bot/reply.ts';
import { Runtime } from '../../src/bot/runtime.ts';
import { createClient } from '../../src/client/client.ts';
import type { EsportsClient } from '../../src/client/types.ts';
import { createFeed } from '../../src/feed/feed.ts';
import { ADMIN, type Stack, startStack, tenantWith } from '../commands/helpers.ts';

let stack: Stack;
const opened: { client: EsportsClient; names: NameIndex }[] = [];

beforeAll(async () => {
  stack = await startStack();
}, 120_000);

afterAll(async () => {
  for (const { client, names } of opened) {
    names.stop();
    await client.close();
  }
  await stack?.close();
});

/**
 * A runtime as a new process has it: its own client at 5 requests/s, a name index not loaded and a
 * feed that has read nothing.
 */
function freshRuntime(): { runtime: Runtime; names: NameIndex; client: EsportsClient } {
  const client = createClient({
    baseUrl: stack.service.url,
    secret: stack.service.secret,
    rate: { perSecond: 5, burst: 5 },
  });
  const names = createNameIndex({ client, clock: stack.clock });
  opened.push({ client, names });
  // A reader's feed that has read nothing yet, as `matchday ask` starts on a new store.
  const picture = createFeed({ client, clock: stack.clock, mode: 'reader' });
  const runtime = new Runtime({
    commands,
    client,
    names,
    picture,
    tenants: stack.tenants,
    clock: stack.clock,
    logger: pino({ level: 'silent' }),
    perUserLimit: { count: 1_000_000, windowMs: 1000 },
  });
  return { runtime, names, client };
}

async function run(runtime: Runtime, command: string, text: string) {
  const tenantKey = await tenantWith(stack, { spoilers: 'show' });
  const started = performance.now();
  const result = await runtime.run({
    platform: 'terminal',
    tenantKey,
    user: ADMIN,
    channel: { id: 'c-main', name: 'main' },
    command,
    args: { [command === 'team' ? 'team' : 'player']: text },
  });
  return { ...result, ms: performance.now() - started, text: replyText(result.reply, true) };
}

/** Every name offered is accepted by the same command: on a new store, and with the names loaded. */
async function expectAccepted(command: 'team' | 'player', suggestions: readonly string[]): Promise<void> {
  for (const suggestion of suggestions) {
    const fresh = await run(freshRuntime().runtime, command, suggestion);
    expect(fresh.outcome, `${suggestion} on a new store: ${fresh.text}`).toBe('ok');
    const loaded = await run(stack.runtime, command, suggestion);
    expect(loaded.outcome, `${suggestion} with the names loaded: ${loaded.text}`).toBe('ok');
  }
}

describe('typo pieces', () => {
  it('leaves a piece whole whatever one typo (two from nine letters) changes', () => {
    expect(typoPieces('Liquidd')).toEqual(['liqu', 'idd']);
    expect(typoPieces('s1mpel')).toEqual(['s1m', 'pel']);
    expect(typoPieces('Vipoo')).toEqual(['vip', 'poo']);
    expect(typoPieces('Crimsn Sharks')).toEqual(['crimsn', 'sharks']);
    expect(typoPieces('Xenqudunx')).toEqual(['xen', 'qud', 'unx']);
    expect(typoPieces('Zogalqu (Iron Pilots, SP)')).toEqual(['zoga', 'lqu']);
    expect(typoPieces('abc')).toEqual([]);
  });
});

describe('a misspelt name on a new store, at 5 requests/s', () => {
  it('/team with a typo answers the team within the command time, without the whole index', async () => {
    const team = stack.service.world.catalog.teams.find(
      (t) => t.name.split(' ').length === 2 && t.organisation !== null,
    )!;
    const [first, second] = team.name.split(' ') as [string, string];
    const typo = `${first.slice(0, -2)}${first.slice(-1)} ${second}`;
    const { runtime, names } = freshRuntime();
    const answer = await run(runtime, 'team', typo);
    expect(answer.outcome, answer.text).toBe('ok');
    expect(answer.text).toContain(team.name);
    expect(answer.text).toContain(`No team is called "${typo}"`);
    // Its organisation too, read for it (the index holds none yet).
    const organisation = stack.service.world.catalog.organisations.find(
      (o) => o.id === team.organisation?.id,
    );
    if (organisation) expect(answer.text).toContain(organisation.name);
    expect(answer.ms).toBeLessThan(10_000);
    // It did not wait for the index (about 55 requests, over 10 s at this rate).
    expect(names.loaded).toBe(false);
  }, 30_000);

  /** Players whose nick holds `piece` (as the service's `~=` finds them). */
  const holding = (piece: string) =>
    stack.service.world.catalog.players.filter((p) => p.nick_name.toLowerCase().includes(piece)).length;
  /** A nick several players share, misspelt (its last letter doubled): as close to each of them. */
  const sharedTypo = (truncated: boolean) => {
    const nicks = new Map<string, number>();
    for (const p of stack.service.world.catalog.players)
      if (p.deleted_at === null) nicks.set(p.nick_name, (nicks.get(p.nick_name) ?? 0) + 1);
    for (const [nick, count] of nicks) {
      if (count < 2 || nick.length < 5 || nick.length >= 8) continue;
      const typo = `${nick}${nick.at(-1)}`;
      // Not a part of another nick (that nick would be the answer, as with the names loaded).
      if (holding(typo.toLowerCase()) > 0) continue;
      // Whether a piece of it matches a full page (50) of nicks: the search is then cut short.
      if (typoPieces(typo).some((piece) => holding(piece) >= 50) === truncated) return { nick, typo };
    }
    throw new Error('no such nick in the world');
  };

  it('/player with a typo says "did you mean" the namesakes, names /player accepts, new store or loaded', async () => {
    const { nick, typo } = sharedTypo(false);
    const { runtime, names } = freshRuntime();
    const answer = await run(runtime, 'player', typo);
    expect(answer.outcome, answer.text).toBe('user-error');
    expect(answer.ms).toBeLessThan(10_000);
    expect(names.loaded).toBe(false);
    expect(answer.suggestions!.filter((s) => s.startsWith(`${nick} (`)).length).toBeGreaterThan(1);
    await expectAccepted('player', answer.suggestions!);
  }, 120_000);

  it('/player with a typo whose search was cut short offers names instead of taking one', async () => {
    const { typo } = sharedTypo(true);
    const { runtime } = freshRuntime();
    const answer = await run(runtime, 'player', typo);
    // Not taken as the one namesake the first page held: the others may be as close.
    expect(answer.outcome, answer.text).toBe('user-error');
    expect(answer.ms).toBeLessThan(10_000);
    expect(answer.suggestions?.length).toBeGreaterThan(0);
    await expectAccepted('player', answer.suggestions!);
  }, 120_000);

  it('/team with a typo near several teams offers names /team accepts, new store or loaded', async () => {
    const byWord = new Map<string, string[]>();
    for (const t of stack.service.world.catalog.teams) {
      const last = t.name.split(' ').at(-1)!;
      byWord.set(last, [...(byWord.get(last) ?? []), t.name]);
    }
    const [word] = [...byWord].find(([w, list]) => list.length > 2 && w.length >= 6)!;
    // The second word alone, misspelt: as close to every team ending with it.
    const typo = `${word.slice(0, -1)}${word.slice(-1).repeat(2)}x`;
    const { runtime } = freshRuntime();
    const answer = await run(runtime, 'team', typo);
    expect(answer.ms).toBeLessThan(10_000);
    if (answer.outcome === 'ok') return;
    expect(answer.outcome, answer.text).toBe('user-error');
    expect(answer.suggestions?.length).toBeGreaterThan(0);
    await expectAccepted('team', answer.suggestions!);
  }, 120_000);

  it('nothing close: says the names are still loading and when to try again, not "no team matches"', async () => {
    const { runtime, names } = freshRuntime();
    // Every answer a second late: the index's load (several rounds of requests) cannot finish while
    // the typo's search (one round) runs, on a fast machine as on a loaded one; without it the load
    // could end first and the loaded index answer instead.
    stack.service.faults.latencyMs = 1000;
    let answer: Awaited<ReturnType<typeof run>>;
    try {
      names.refresh().catch(() => undefined);
      answer = await run(runtime, 'team', 'Qzxwvkj');
      expect(names.loaded).toBe(false);
    } finally {
      stack.service.faults.latencyMs = 0;
    }
    expect(answer.outcome, answer.text).toBe('error');
    expect(answer.code).toBe('NAMES_LOADING');
    expect(answer.text).toMatch(/still loading .* Try again in \d+ seconds/);
    expect(answer.text).not.toMatch(/No team matches/);
    expect(answer.ms).toBeLessThan(10_000);
    // Once the index is loaded, the same text has its plain answer.
    await names.refresh();
    const later = await run(runtime, 'team', 'Qzxwvkj');
    expect(later.outcome).toBe('user-error');
    expect(later.code).toBe('UNKNOWN_TEAM');
  }, 60_000);

  it('a nick whose every piece the service finds no player near is a plain "no player matches"', async () => {
    const { runtime } = freshRuntime();
    const answer = await run(runtime, 'player', 'Qzxwvkj');
    expect(answer.outcome, answer.text).toBe('user-error');
    expect(answer.code).toBe('UNKNOWN_PLAYER');
    expect(answer.ms).toBeLessThan(10_000);
  }, 30_000);
});
