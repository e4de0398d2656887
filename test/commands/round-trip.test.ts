/**
 * Names round-trip: anything Matchday suggests (a completion, a "Did you mean" candidate, a
 * listed ambiguous match) is accepted verbatim by the same command. Every suggestion is collected
 * from the real name index and runtime and typed back as a terminal line would carry it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import type { AutocompleteSource } from '../../src/bot/choice.ts';
import { knownIn, parseCommandText } from '../../src/bot/text-args.ts';
import { completeLine } from '../../src/platforms/terminal/chat.ts';
import { completionsFor } from '../../src/platforms/terminal/complete.ts';
import { APIS, call, type Stack, startStack } from './helpers.ts';

let stack: Stack;
describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** Runs a typed line the way the terminal does: parse (with the name index), then the runtime. */
  async function typed(line: string) {
    const known = knownIn((source, value) => stack.runtime.autocomplete(source, value));
    const parsed = parseCommandText(line, commands, undefined, known);
    return call(
      stack,
      parsed.command,
      parsed.args,
      parsed.subcommand ? { subcommand: parsed.subcommand } : {},
    );
  }

  /**
   * The command line that takes a value of `source`, per source. (Organisations are taken only by
   * `/me`, which needs a person's store: `me.test.ts` follows them; below, their completions resolve.)
   */
  const USE: Record<Exclude<AutocompleteSource, 'timezone' | 'organisation'>, (value: string) => string> = {
    game: (v) => `/series game:"${v}"`,
    team: (v) => `/team team:"${v}"`,
    tournament: (v) => `/tournament tournament:"${v}"`,
    series: (v) => `/casters series:"${v}"`,
    substage: (v) => `/standings tournament:"${stageOwner(v)}" stage:"${v}"`,
    player: (v) => `/player player:"${v}"`,
  };

  /** A stage label names its tournament after " · " (short title). */
  function stageOwner(label: string): string {
    return label.split(' · ')[1]!;
  }

  /** Prefixes a user might type: the first letters of each word of some names, and empty text. */
  function prefixesOf(labels: string[]): string[] {
    const out = new Set<string>(['']);
    for (const label of labels.slice(0, 40)) {
      const words = label.split(' ');
      out.add(words[0]!.slice(0, 3));
      if (words[1]) out.add(`${words[0]} ${words[1].slice(0, 2)}`);
    }
    return [...out];
  }

  describe('names round-trip', () => {
    it('accepts every completion the index offers, for every kind of name, verbatim', async () => {
      const sources = Object.keys(USE) as (keyof typeof USE)[];
      // Players load on first use (the first search starts it): loaded here so the search offers them.
      await stack.names.ensurePlayers();
      let checked = 0;
      for (const source of sources) {
        const first = stack.runtime.autocomplete(source, '').map((c) => c.name);
        expect(first.length, source).toBeGreaterThan(0);
        const offered = new Set<string>();
        for (const prefix of prefixesOf(first))
          for (const choice of stack.runtime.autocomplete(source, prefix)) offered.add(choice.name);
        // Terminal completion inserts the names (labels), not the ids Discord sends back.
        for (const label of [...offered].slice(0, 60)) {
          const result = await typed(USE[source](label));
          expect(result.outcome, `${source} "${label}": ${result.text}`).toBe('ok');
          expect(result.reply.content, `${source} "${label}" needs no correction`).toBeUndefined();
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(100);
    });

    it('resolves every organisation the index offers to the one offered, verbatim and without a note', async () => {
      const offered = stack.runtime.autocomplete('organisation', '');
      expect(offered.length).toBeGreaterThan(10);
      for (const choice of offered) {
        const notes: string[] = [];
        expect(await stack.names.resolve('organisation', choice.name, undefined, notes)).toBe(
          Number(choice.value),
        );
        expect(notes).toEqual([]);
      }
    });

    it('accepts every value the terminal completes with Tab, typed back unchanged', async () => {
      for (const [line, min] of [
        ['/team team:Ir', 1],
        ['/series game:', 1],
        ['/settings spoilers policy:', 1],
        ['/tournament tournament:AC', 1],
      ] as const) {
        const [candidates] = completeLine(line, stack.runtime);
        expect(candidates.length, line).toBeGreaterThanOrEqual(min);
        const stem = line.slice(0, line.lastIndexOf(' ') + 1);
        for (const candidate of candidates.slice(0, 10)) {
          const result = await typed(`${stem}${candidate}`);
          expect(result.outcome, `${stem}${candidate}: ${result.text}`).toBe('ok');
        }
      }
    });

    it('completes without erasing what was typed, named and positional, and every completion and offer is accepted verbatim', async () => {
      const team = stack.names.team(Number(stack.runtime.autocomplete('team', 'Iron')[0]!.value))!;
      const [first, second] = team.name.split(' ') as [string, string];
      const tournament = stack.runtime.autocomplete('tournament', 'AC')[0]!.name;
      const lines = [
        `/team team:${first.slice(0, 2)}`,
        `/team ${first.slice(0, 2)}`,
        `/team ${first} ${second.slice(0, 1)}`,
        `/team ${first.toLowerCase()} ${second.slice(0, 1).toLowerCase()}`,
        `/team team:${first} ${second.slice(0, 2)}`,
        `/team ${second}`,
        `/team team:${second}`,
        '/tournament AC',
        '/tournament tournament:"AC',
        `/standings "${tournament}" Gr`,
        '/series game:S',
        '/series l',
        '/casters series:',
        '/settings spoilers policy:',
        `/follow team ${first.slice(0, 2)}`,
      ];
      let accepted = 0;
      let offered = 0;
      for (const line of lines) {
        const { candidates, current, offers } = completionsFor(line, stack.runtime);
        expect(line.endsWith(current), line).toBe(true);
        // Readline inserts the candidates' common part: each must continue the typed text exactly.
        for (const candidate of candidates)
          expect(candidate.startsWith(current), `${line} -> ${candidate}`).toBe(true);
        expect(candidates.length + offers.length, `${line} offers something`).toBeGreaterThan(0);
        const stem = line.slice(0, line.length - current.length);
        for (const completion of [...candidates, ...offers].filter((c) => !c.endsWith(':')).slice(0, 8)) {
          const result = await typed(`${stem}${completion}`);
          expect(result.outcome, `${stem}${completion}: ${result.text}`).toBe('ok');
          expect(result.reply.content, `${stem}${completion} needs no correction`).toBeUndefined();
          accepted++;
        }
        offered += offers.length;
      }
      expect(accepted).toBeGreaterThan(40);
      // Some lines match inside names (not a prefix): those are offered, not inserted.
      expect(offered).toBeGreaterThan(0);
      expect(
        completionsFor(`/team ${second}`, stack.runtime).candidates.some((c) => c.includes(team.name)),
      ).toBe(false);
      expect(completionsFor(`/team ${second}`, stack.runtime).offers.some((o) => o.includes(team.name))).toBe(
        true,
      );
    });

    it('accepts a name of several words Tab inserts unquoted before another name option (/standings SP Lisbon M<Tab>)', async () => {
      const tournaments = stack.runtime
        .autocomplete('tournament', '')
        .map((c) => c.name)
        .filter((name) => name.split(' ').length >= 3);
      expect(tournaments.length).toBeGreaterThan(3);
      let checked = 0;
      for (const name of tournaments.slice(0, 6)) {
        const [a, b, c] = name.split(' ') as [string, string, string];
        const line = `/standings ${a} ${b} ${c.slice(0, 1)}`;
        const { candidates, current } = completionsFor(line, stack.runtime);
        expect(candidates.length, line).toBeGreaterThan(0);
        for (const candidate of candidates.slice(0, 5)) {
          const result = await typed(`${line.slice(0, line.length - current.length)}${candidate}`);
          expect(result.outcome, `${candidate}: ${result.text}`).toBe('ok');
          expect(result.reply.content, `${candidate} needs no correction`).toBeUndefined();
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(5);
      // Words that name nothing whole are still shown both ways, not guessed.
      expect(() =>
        parseCommandText(
          '/standings Qqq Www Eee',
          commands,
          undefined,
          knownIn((source, value) => stack.runtime.autocomplete(source, value)),
        ),
      ).toThrow(/can be read more than one way/);
      // A tournament named whole, then a stage: the reading with the known tournament wins.
      const whole = tournaments.find((n) => n.startsWith('SP Lisbon Masters')) ?? tournaments[0]!;
      const name = whole.replace(/ \(.*$/, '');
      const parsed = parseCommandText(
        `/standings ${name} Group A`,
        commands,
        undefined,
        knownIn((source, value) => stack.runtime.autocomplete(source, value)),
      );
      expect(parsed.args).toEqual({ tournament: name, stage: 'Group A' });
    });

    it('accepts every "Did you mean" candidate, and takes a single clear typo with a note', async () => {
      const team = stack.names.team(Number(stack.runtime.autocomplete('team', 'Iron')[0]!.value))!;
      const misspelt = `${team.name.slice(0, -2)}${team.name.at(-1)}${team.name.at(-2)}`;
      const corrected = await typed(`/team ${misspelt}`);
      expect(corrected.outcome, corrected.text).toBe('ok');
      expect(corrected.text).toContain(`No team is called "${misspelt}"; showing ${team.name}`);
      expect(corrected.reply.cards[0]!.title).toContain(team.name);

      const asked: string[] = [];
      for (const line of [
        '/team team:"Iron Qqqqq"',
        '/team team:Iron',
        '/tournament tournament:"AC Qqqqq"',
        '/tournament tournament:Masters',
        '/series game:"Strike Qqqqq"',
      ]) {
        const result = await typed(line);
        expect(result.outcome, line).toBe('user-error');
        expect(result.text).toMatch(/Did you mean|Pick one/);
        const suggestions = result.suggestions ?? [];
        expect(suggestions.length, line).toBeGreaterThan(0);
        const source = line.split(' ')[1]!.split(':')[0]!;
        for (const s of suggestions) asked.push(USE[source as 'game' | 'team' | 'tournament'](s));
      }
      for (const line of asked) {
        const result = await typed(line);
        expect(result.outcome, `${line}: ${result.text}`).toBe('ok');
        expect(result.reply.content, `${line} needs no correction`).toBeUndefined();
      }
    });

    it('accepts a series label offered before the series went live (its state part changed)', async () => {
      // A live series whose label names its teams. Where the service's answers leave the teams
      // unlabelled ("TBD vs TBD", v2), an event playing several series at once on its broadcast
      // day makes the label with another state part ambiguous: Matchday then offers the choices.
      const offered = stack.runtime.autocomplete('series', '');
      const named = offered.find((c) => c.name.endsWith(' · LIVE') && !c.name.startsWith('TBD vs TBD'));
      const live = named ?? offered.find((c) => c.name.endsWith(' · LIVE'))!;
      expect(live).toBeDefined();
      const earlier = live.name.replace(/ · LIVE$/, ' · 2026-03-18 15:00 UTC');
      const result = await typed(`/casters series:"${earlier}"`);
      if (named) expect(result.outcome, result.text).toBe('ok');
      else {
        expect(result.outcome).toBe('user-error');
        expect(result.suggestions ?? result.text).toContain(live.name);
      }
    });
  });

  it('offers values for a missing name as whole commands, and each is accepted as typed', async () => {
    let checked = 0;
    for (const command of commands) {
      if (command.subcommands || command.adminOnly) continue;
      const required = Object.entries(command.options ?? {}).filter(([, def]) => def.required);
      if (required.length !== 1 || !required[0]![1].autocomplete) continue;
      // Players load on first use: loaded here.
      if (required[0]![1].autocomplete === 'player') await stack.names.ensurePlayers();
      const asked = await typed(`/${command.name}`);
      expect(asked.outcome, command.name).toBe('user-error');
      expect(asked.code).toBe('MISSING_ARGUMENT');
      const offers = asked.suggestions ?? [];
      expect(offers.length, command.name).toBeGreaterThan(0);
      expect(asked.message).toContain(`For example: ${offers[0]}`);
      for (const offer of offers) {
        expect(offer.startsWith(`/${command.name} ${required[0]![0]}:`), offer).toBe(true);
        const answer = await typed(offer);
        expect(answer.outcome, offer).toBe('ok');
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });
});
