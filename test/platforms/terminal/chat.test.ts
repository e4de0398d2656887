import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnyCommand, defineCommand } from '../../../src/bot/command.ts';
import { CONFIG_VARIABLES } from '../../../src/config.ts';
import { completeLine } from '../../../src/platforms/terminal/chat.ts';
import { completionsFor } from '../../../src/platforms/terminal/complete.ts';

const BIN = join(import.meta.dirname, '../../../bin/matchday.mjs');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `matchday <args>` with only the given configuration, feeding `input` to stdin. */
function matchday(args: string[], env: Record<string, string>, input = '', cwd?: string): Promise<Run> {
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !(CONFIG_VARIABLES as string[]).includes(key)) clean[key] = value;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...clean, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(cwd ? { cwd } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

/**
 * Splits the chat's output into the answer blocks after the banner. Notifications (printed at
 * whatever moment the real clock makes them due) are left out: each starts with its
 * `#terminal · message N` header, and when it has a text line before its card (a reminder's
 * "Starts in ..."), the card follows after a blank line, so that next block is theirs too.
 */
function blocks(stdout: string): string[] {
  const out: string[] = [];
  let cardOfNotification = false;
  for (const block of stdout.split('\n\n')) {
    const notification = /^#\S+ (·|↻) /.test(block);
    if (block.startsWith('▌') && !cardOfNotification) out.push(block);
    cardOfNotification = notification && !block.includes('\n▌');
  }
  return out;
}

describe('terminal chat, driven through stdin as a child process', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'matchday-chat-'));
    env = {
      STORE_URL: `sqlite://${join(dir, 'data', 'matchday.sqlite')}`,
      ESPORTS_SEED: '7',
      LOG_LEVEL: 'info',
      // The terminal tenant starts in the system's zone.
      TZ: 'America/Chicago',
    };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers /help, /series live, a mistyped command and /settings, then exits 0 at the end of input', async () => {
    const run = await matchday(
      ['start'],
      env,
      '/help\n/series live\n/seires\n/settings show\n/settings timezone zone:Asia/Tokyo\n',
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Matchday is running in your terminal\./);
    expect(run.stdout).toMatch(/embedded local esports service at http:\/\/127\.0\.0\.1:\d+\/v3\s+\(seed 7/);
    expect(run.stdout).toContain('Connect Discord (DISCORD_TOKEN');
    const answers = blocks(run.stdout);
    expect(answers).toHaveLength(5);
    expect(answers[0]).toContain('/series');
    expect(answers[0]).toContain('/standings');
    expect(answers[1]).toMatch(/Live series/);
    expect(answers[2]).toContain('There is no command "seires"');
    expect(answers[2]).toContain('/series');
    expect(answers[3]).toContain('Matchday settings');
    expect(answers[3]).toMatch(/Timezone\s+America\/Chicago/);
    expect(answers[4]).toContain('Asia/Tokyo');
    // No colour codes when the output is not a terminal; logs go to the file, not the chat.
    expect(run.stdout).not.toContain('\u001b[');
    expect(run.stdout).not.toContain('"level"');
    // The log file has the chat's own lines; a background load cut short by the end of input is
    // "stopping", not a warning about a closed client.
    const log = readFileSync(join(dir, 'data', 'matchday.log'), 'utf8');
    expect(log).toContain('terminal chat ended');
    expect(log).not.toContain('client is closed');
  }, 120_000);

  it('keeps a settings change across a restart (the same SQLite file)', async () => {
    // The run above changed the time zone; a new process reads it from the file.
    const second = await matchday(['start'], env, '/settings show\n');
    expect(blocks(second.stdout)[0]).toMatch(/Timezone\s+Asia\/Tokyo/);
  }, 120_000);

  it('matchday ask: exit 0 with the reply on stdout, 1 with the message on stderr for user errors', async () => {
    const [ok, unknown, badValue, empty] = await Promise.all([
      matchday(['ask', '/help'], env),
      matchday(['ask', '/seires live'], env),
      matchday(['ask', `/team team:"${'x'.repeat(1000)}"`], env),
      matchday(['ask'], env),
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('Matchday commands');
    expect(ok.stderr).not.toContain('"level":30');
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('There is no command "seires"');
    expect(unknown.stderr).toContain('Did you mean: /series');
    expect(badValue.code).toBe(1);
    expect(badValue.stderr).toMatch(/team: is too long \(1000 characters\)/);
    // Mistakes in the line are answered before anything starts: no service, no store.
    expect(unknown.stderr).not.toContain('Matchday could not start');
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('Usage: matchday ask');
  }, 120_000);

  it('reads .env from the working directory, the environment winning, and names the file in the banner', async () => {
    const home = join(dir, 'with-env');
    mkdirSync(home);
    writeFileSync(join(home, '.env'), '# from the README\nESPORTS_SEED=9\nLOG_LEVEL=warn\n');
    const run = await matchday(['start'], env, '/settings show\n', home);
    expect(run.code).toBe(0);
    expect(run.stdout.replace(/\n\s+/g, ' ')).toContain(
      `config  ${join(home, '.env')}, under the environment`,
    );
    // ESPORTS_SEED=7 in the environment wins over the file's 9.
    expect(run.stdout).toMatch(/\(seed 7/);
    // A malformed .env stops start-up with the file and line, before anything starts.
    writeFileSync(join(home, '.env'), 'ESPORTS_SEED=9\nDISCORD_TOKEN the-token-value\n');
    const bad = await matchday(['start'], env, '/help\n', home);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${join(home, '.env')} line 2 is not a NAME=value line`);
    expect(bad.stderr).not.toContain('the-token-value');
    expect(bad.stdout).toBe('');
  }, 120_000);

  it('stops start-up on a bad variable, naming it, without starting anything', async () => {
    const run = await matchday(['start'], { ...env, ESPORTS_RATE: 'fast' }, '/help\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Configuration error: ESPORTS_RATE');
    expect(run.stderr).toContain('.env.example');
    expect(run.stdout).toBe('');
  }, 60_000);
});

describe('completeLine', () => {
  const commands: AnyCommand[] = [
    defineCommand({
      name: 'series',
      description: 'Series',
      subcommands: {
        live: {
          description: 'Live',
          options: {
            team: { type: 'string', description: 'Team', autocomplete: 'team' },
            when: {
              type: 'string',
              description: 'When',
              choices: [
                { name: 'Today', value: 'today' },
                { name: 'Tomorrow', value: 'tomorrow' },
              ],
            },
            spoilers: { type: 'boolean', description: 'Show results' },
          },
          run: async () => ({ cards: [] }),
        },
      },
    }),
    defineCommand({ name: 'settings', description: 'Settings', run: async () => ({ cards: [] }) }),
  ];
  const runtime = {
    commands,
    autocomplete: (source: string, text: string) =>
      source === 'team'
        ? [
            { name: 'Team Spirit', value: 1 },
            { name: `Team ${text}`, value: 2 },
          ]
        : [],
  };

  it('completes command names with their slash', () => {
    expect(completeLine('/se', runtime)).toEqual([['/series', '/settings'], '/se']);
    expect(completeLine('ser', runtime)).toEqual([['series'], 'ser']);
  });

  it('completes subcommands, then unused option names', () => {
    expect(completeLine('/series l', runtime)).toEqual([['live'], 'l']);
    expect(completeLine('/series live ', runtime)).toEqual([['team:', 'when:', 'spoilers:'], '']);
    expect(completeLine('/series live when:today ', runtime)).toEqual([['team:', 'spoilers:'], '']);
  });

  it('completes values from choices, booleans and the name index, quoting names with spaces', () => {
    expect(completeLine('/series live when:to', runtime)).toEqual([
      ['when:today', 'when:tomorrow'],
      'when:to',
    ]);
    expect(completeLine('/series live spoilers:t', runtime)).toEqual([['spoilers:true'], 'spoilers:t']);
    // Unquoted words after team: continue its value.
    expect(completeLine('/series live team:Team S', runtime)).toEqual([['team:Team Spirit'], 'team:Team S']);
    expect(completeLine('/series live team:"Team', runtime)).toEqual([
      ['team:"Team Spirit"', 'team:"Team Team"'],
      'team:"Team',
    ]);
  });

  it('never hands readline a candidate that does not continue what was typed: other matches are offers', () => {
    // "Spi" is inside "Team Spirit", not its start: readline would replace "team:Spi" with "team:".
    expect(completionsFor('/series live team:Spi', runtime)).toEqual({
      candidates: [],
      current: 'team:Spi',
      offers: ['team:"Team Spirit"', 'team:"Team Spi"'],
    });
    // A prefix typed in another case keeps the user's letters.
    expect(completionsFor('/series live team:team sp', runtime).candidates).toContain('team:team spirit');
    for (const line of [
      '/se',
      '/series l',
      '/series live when:TO',
      '/series live team:te',
      '/series live Te',
    ]) {
      const { candidates, current } = completionsFor(line, runtime);
      expect(line.endsWith(current), line).toBe(true);
      for (const c of candidates) expect(c.startsWith(current), `${line} -> ${c}`).toBe(true);
    }
  });

  it('completes positional values, a name of several words as one value', () => {
    expect(completionsFor('/series live Team Sp', runtime)).toMatchObject({
      candidates: ['Team Spirit'],
      current: 'Team Sp',
    });
    // After a quoted team, the next positional option is `when`: its choices.
    expect(completionsFor('/series live "Team Spirit" to', runtime).candidates).toEqual([
      'today',
      'tomorrow',
    ]);
    // After a named value, a word may start the next option (or continue the name).
    expect(completionsFor('/series live team:x w', runtime)).toMatchObject({
      candidates: ['team:x when:'],
      current: 'team:x w',
    });
  });

  it('offers nothing for an unknown command or option', () => {
    expect(completeLine('/nope x', runtime)).toEqual([[], 'x']);
    expect(completeLine('/series live colour:r', runtime)).toEqual([[], 'colour:r']);
  });
});
