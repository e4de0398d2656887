import { describe, expect, it } from 'vitest';
import { commands as real } from '../../commands/index.ts';
import { type AnyCommand, defineCommand } from '../../src/bot/command.ts';
import { notice } from '../../src/bot/reply.ts';
import { parseCommandText, tokenize } from '../../src/bot/text-args.ts';
import { messageText, UserError } from '../../src/core/errors.ts';

const series = defineCommand({
  name: 'series',
  description: 'Series',
  subcommands: {
    live: {
      description: 'Live series',
      options: {
        game: { type: 'string', description: 'Game' },
        team: { type: 'string', description: 'Team' },
        limit: { type: 'integer', description: 'How many' },
      },
      run: async () => notice('x', 'y'),
    },
    upcoming: {
      description: 'Upcoming',
      options: { game: { type: 'string', description: 'Game' } },
      run: async () => notice('x', 'y'),
    },
  },
});
const team = defineCommand({
  name: 'team',
  description: 'A team',
  options: {
    team: { type: 'string', description: 'Team', required: true },
    results: { type: 'boolean', description: 'Results' },
  },
  run: async () => notice('x', 'y'),
});
const help = defineCommand({ name: 'help', description: 'Help', run: async () => notice('x', 'y') });
const commands: AnyCommand[] = [series, team, help];

function userError(fn: () => unknown): UserError {
  try {
    fn();
  } catch (error) {
    if (error instanceof UserError) return error;
    throw error;
  }
  throw new Error('expected a UserError');
}

describe('parseCommandText', () => {
  it('parses a subcommand with name:value pairs and a double-quoted value', () => {
    expect(parseCommandText('/series live game:cs2 team:"Team Spirit"', commands)).toEqual({
      command: 'series',
      subcommand: 'live',
      args: { game: 'cs2', team: 'Team Spirit' },
    });
  });

  it('accepts no leading slash, single and typographic quotes, and mixed case', () => {
    expect(parseCommandText("Series LIVE team:'Natus Vincere'", commands).args).toEqual({
      team: 'Natus Vincere',
    });
    expect(parseCommandText('team \u201cTeam Liquid\u201d', commands).args).toEqual({ team: 'Team Liquid' });
  });

  it('fills positional values in declaration order, skipping options given by name', () => {
    expect(parseCommandText('/series live team:Vitality dota2 5', commands).args).toEqual({
      team: 'Vitality',
      game: 'dota2',
      limit: '5',
    });
  });

  it('keeps a colon inside a quoted or non-identifier value as part of the value', () => {
    expect(parseCommandText('/team "a:b"', commands).args).toEqual({ team: 'a:b' });
    expect(parseCommandText('/team team:x:y', commands).args).toEqual({ team: 'x:y' });
  });

  it('suggests the closest command for an unknown one and lists all commands', () => {
    const error = userError(() => parseCommandText('/seires live', commands));
    expect(error.code).toBe('UNKNOWN_COMMAND');
    expect(error.message).toContain('/series, /team, /help');
    expect(error.suggestions).toEqual([{ command: 'series' }]);
  });

  it('refuses an unknown option and names the valid ones', () => {
    const error = userError(() => parseCommandText('/series live gmae:cs2', commands));
    expect(error.code).toBe('UNKNOWN_OPTION');
    expect(error.message).toContain('game: team: limit:');
    expect(error.suggestions).toContain('game:');
  });

  it('reports an unclosed quote with its position', () => {
    const error = userError(() => parseCommandText('/team team:"Team Spirit', commands));
    expect(error.code).toBe('UNCLOSED_QUOTE');
    expect(error.message).toMatch(/position 12/);
  });

  it('takes several unquoted words as one name where the words after it cannot be another option', () => {
    expect(parseCommandText('/team Team Spirit Moscow', commands).args).toEqual({
      team: 'Team Spirit Moscow',
    });
    expect(parseCommandText('/team Nova Krakens yes', commands).args).toEqual({
      team: 'Nova Krakens',
      results: 'yes',
    });
    // The real commands: counts, tiers and choices between the names decide where a name ends.
    expect(parseCommandText('/team Nova Krakens', real).args).toEqual({ team: 'Nova Krakens' });
    expect(parseCommandText('/team Nova Krakens 3', real).args).toEqual({ team: 'Nova Krakens', count: '3' });
    expect(parseCommandText('/series live Strike Point', real).args).toEqual({
      when: 'live',
      game: 'Strike Point',
    });
    expect(parseCommandText('/series recent Strike Point 1 team:"Nova Krakens"', real).args).toEqual({
      when: 'recent',
      game: 'Strike Point',
      tier: '1',
      team: 'Nova Krakens',
    });
    expect(parseCommandText('/tournament AC Lisbon Masters 16-22 Mar 2026', real).args).toEqual({
      tournament: 'AC Lisbon Masters 16-22 Mar 2026',
    });
    expect(parseCommandText('/follow team Nova Krakens', real).args).toEqual({ team: 'Nova Krakens' });
    // One word per option still wins when every word fits its option.
    expect(parseCommandText('/series live sp krakens 3', commands).args).toEqual({
      game: 'sp',
      team: 'krakens',
      limit: '3',
    });
  });

  it('refuses a run of words that two text options could share in several ways, showing the readings', () => {
    const error = userError(() => parseCommandText('/series live Strike Point Nova Krakens 3', commands));
    expect(error.code).toBe('AMBIGUOUS_VALUES');
    expect(error.message).toContain('game:Strike team:"Point Nova Krakens" limit:3');
    expect(error.message).toContain('quotes');
    // Every reading offered parses back to itself.
    for (const suggestion of error.suggestions.map(messageText)) {
      const parsed = parseCommandText(suggestion, commands);
      expect(Object.keys(parsed.args)).toEqual(['game', 'team', 'limit']);
    }
  });

  it('continues a named text value with the bare words after it, unless they fit a number or choice left', () => {
    expect(parseCommandText('/follow team team:Iron Pilots', real).args).toEqual({ team: 'Iron Pilots' });
    expect(parseCommandText('/team team:Nova Krakens 3', real).args).toEqual({
      team: 'Nova Krakens',
      count: '3',
    });
    expect(parseCommandText('/settings games games:SP, AC', real).args).toEqual({ games: 'SP, AC' });
    expect(parseCommandText('/series game:Strike Point live', real).args).toEqual({
      game: 'Strike Point',
      when: 'live',
    });
    // Several words after a named text value continue it, not another text option left.
    expect(parseCommandText('/standings tournament:AC Lisbon Masters', real).args).toEqual({
      tournament: 'AC Lisbon Masters',
    });
    expect(parseCommandText('/standings tournament:AC Lisbon Masters stage:Group A', real).args).toEqual({
      tournament: 'AC Lisbon Masters',
      stage: 'Group A',
    });
    // A quoted value is whole; the next word is positional again.
    expect(parseCommandText('/series game:"Strike Point" live', real).args).toEqual({
      game: 'Strike Point',
      when: 'live',
    });
  });

  it('says how to write a tournament and a stage of several words each, rather than guessing', () => {
    const error = userError(() => parseCommandText('/standings AC Lisbon Masters Group A', real));
    expect(error.code).toBe('AMBIGUOUS_VALUES');
    expect(error.message).toContain(
      'e.g. tournament:AC stage:"Lisbon Masters Group A" or tournament:"AC Lisbon Masters Group A".',
    );
    // The team could end before or after "Krakens" (the tournament follows): asked, not guessed.
    const team = userError(() => parseCommandText('/series recent Strike Point 1 Nova Krakens', real));
    expect(team.code).toBe('AMBIGUOUS_VALUES');
    expect(error.message).toContain('Name the options');
    expect(parseCommandText('/standings "AC Lisbon Masters" Group A', real).args).toEqual({
      tournament: 'AC Lisbon Masters',
      stage: 'Group A',
    });
  });

  it('refuses values left over when no option can take them, and suggests quoting', () => {
    const error = userError(() => parseCommandText('/help me', commands));
    expect(error.code).toBe('TOO_MANY_VALUES');
    expect(error.message).toContain('"me"');
    expect(error.message).toContain('quotes');
  });

  it('requires a known subcommand where the command has them', () => {
    expect(userError(() => parseCommandText('/series', commands)).code).toBe('MISSING_SUBCOMMAND');
    const error = userError(() => parseCommandText('/series lvie', commands));
    expect(error.code).toBe('UNKNOWN_SUBCOMMAND');
    expect(error.suggestions).toEqual([{ command: 'series live' }]);
  });

  it('refuses an option given twice and an empty line', () => {
    expect(userError(() => parseCommandText('/team team:a team:b', commands)).code).toBe('DUPLICATE_OPTION');
    expect(userError(() => parseCommandText('   ', commands)).code).toBe('EMPTY_COMMAND');
  });

  it('tokenizes quotes inside a token and keeps empty quoted values', () => {
    expect(tokenize('team:"" x').map((t) => t.text)).toEqual(['team:', 'x']);
  });
});
