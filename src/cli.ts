/**
 * `matchday <subcommand>`: the one entry point of the package's `bin`. Each subcommand lives in its
 * own module, loaded only when asked for.
 */
const SUBCOMMANDS: Record<
  string,
  { summary: string; load: () => Promise<{ run(argv: string[]): Promise<void> }> }
> = {
  start: {
    summary: 'run Matchday (terminal chat, Discord or Slack, per configuration)',
    load: () => import('./main.ts'),
  },
  service: {
    summary: 'serve the local esports data service (v3, and v2 beside it)',
    load: () => import('./service/cli.ts'),
  },
  ask: {
    summary: 'run one command and print the reply, e.g. matchday ask "/series live"',
    load: () => import('./platforms/terminal/ask.ts'),
  },
  register: {
    summary: 'register the slash commands with Discord [--guild <id>]',
    load: () => import('./platforms/discord/register.ts'),
  },
};

function usage(): string {
  const lines = Object.entries(SUBCOMMANDS).map(([name, { summary }]) => `  ${name.padEnd(10)} ${summary}`);
  return `Usage: matchday <subcommand> [options]\n\n${lines.join('\n')}\n`;
}

export async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(usage());
    return;
  }
  const subcommand = SUBCOMMANDS[name];
  if (!subcommand) {
    process.stderr.write(`Unknown subcommand "${name}".\n\n${usage()}`);
    process.exitCode = 2;
    return;
  }
  const module = await subcommand.load();
  await module.run(rest);
}
