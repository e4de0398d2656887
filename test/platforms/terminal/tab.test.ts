/**
 * Tab in the interactive chat, through real readline on a pseudo-TTY stream:
 * a continuation of what was typed is inserted; matches that do not continue it are listed above
 * the prompt and the typed text stays as it was.
 */
import { PassThrough } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AnyCommand, defineCommand } from '../../../src/bot/command.ts';
import { translator } from '../../../src/i18n/i18n.ts';
import { type Chat, startChat } from '../../../src/platforms/terminal/chat.ts';

const team = defineCommand({
  name: 'team',
  description: 'Team',
  options: { team: { type: 'string', description: 'Team', autocomplete: 'team' } },
  run: async ({ args }) => ({ cards: [{ title: `team ${String(args.team)}` }] }),
});
const NAMES = ['Iron Pilots', 'Nova Krakens', 'Azure Krakens'];

let input: PassThrough;
let written: string;
let chat: Chat;
let lines: string[];

beforeEach(() => {
  input = new PassThrough();
  const output = Object.assign(new PassThrough(), { columns: 80, isTTY: true });
  written = '';
  output.on('data', (chunk: Buffer) => {
    written += chunk.toString();
  });
  lines = [];
  const commands: AnyCommand[] = [team];
  chat = startChat(
    {
      runtime: {
        commands,
        autocomplete: (_source, text) =>
          NAMES.filter((n) => n.toLowerCase().includes(text.toLowerCase())).map((name) => ({
            name,
            value: name,
          })),
        run: async (call) => {
          lines.push(String(call.args.team));
          return { reply: { cards: [{ title: 'ok' }] }, outcome: 'ok', t: translator('en') };
        },
      },
      tenants: {
        get: async () => {
          throw new Error('no store');
        },
      },
      clock: { now: () => new Date('2026-03-18T15:20:00Z') },
      logger: pino({ level: 'silent' }),
    },
    { input, output, interactive: true, colour: false, prompt: '> ' },
  );
});
afterEach(async () => {
  chat.close();
  await chat.closed;
});

/** Waits until `done` holds (polling; no time is asserted). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('Tab in the chat', () => {
  it('inserts a continuation of the typed text and runs the completed line', async () => {
    // Keys one chunk at a time, as typed (a chunk of several is taken as pasted text).
    input.write('/team Iro');
    input.write('\t');
    await until(() => written.includes('Iron Pilots'));
    input.write('\r');
    await until(() => lines.length > 0);
    expect(lines).toEqual(['Iron Pilots']);
  });

  it('lists matches inside names above the prompt and keeps what was typed', async () => {
    input.write('/team krak');
    input.write('\t');
    await until(() => written.includes('Matches for'));
    expect(written).toContain('Matches for "krak": "Nova Krakens"  "Azure Krakens"');
    input.write('\r');
    await until(() => lines.length > 0);
    // The line ran as typed: nothing was erased or replaced.
    expect(lines).toEqual(['krak']);
  });
});
