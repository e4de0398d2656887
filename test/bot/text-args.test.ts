import { describe, expect, it } from 'vitest';
import { type AnyCommand, defineCommand, UserError } from '../../src/bot/command.ts';
import { notice } from '../../src/bot/reply.ts';
import { parseCommandText, tokenize } from '../../src/bot/text-args.ts';

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
    },
    upcoming: { description: 'Upcoming', options: { game: { type: 'string', description: 'Game' } } },
  },
  run: async () => notice('x', 'y'),
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
    expect(error.suggestions).toEqual(['/series']);
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

  it('refuses too many positional values and suggests quoting', () => {
    const error = userError(() => parseCommandText('/team Team Spirit Moscow', commands));
    expect(error.code).toBe('TOO_MANY_VALUES');
    expect(error.message).toContain('"Moscow"');
    expect(error.message).toContain('quotes');
    expect(userError(() => parseCommandText('/help me', commands)).code).toBe('TOO_MANY_VALUES');
  });

  it('requires a known subcommand where the command has them', () => {
    expect(userError(() => parseCommandText('/series', commands)).code).toBe('MISSING_SUBCOMMAND');
    const error = userError(() => parseCommandText('/series lvie', commands));
    expect(error.code).toBe('UNKNOWN_SUBCOMMAND');
    expect(error.suggestions).toEqual(['/series live']);
  });

  it('refuses an option given twice and an empty line', () => {
    expect(userError(() => parseCommandText('/team team:a team:b', commands)).code).toBe('DUPLICATE_OPTION');
    expect(userError(() => parseCommandText('   ', commands)).code).toBe('EMPTY_COMMAND');
  });

  it('tokenizes quotes inside a token and keeps empty quoted values', () => {
    expect(tokenize('team:"" x').map((t) => t.text)).toEqual(['team:', 'x']);
  });
});
