/**
 * Text from the data is text (`src/client/plain-text.ts`): every team, organisation and caster of
 * the local service renamed to a hostile string (a line break followed by a fake result, ESC, BEL,
 * NUL, DEL and a C1 control), then read over HTTP by the notifier (cards rendered as Discord
 * payloads, Slack blocks and terminal text) and by the calendar server (ICS body). Nothing of it
 * may carry a control character or a line the data added.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNameIndex } from '../../src/bot/names.ts';
import type { Reply } from '../../src/bot/reply.ts';
import type { Settings } from '../../src/bot/settings.ts';
import { openUserStore } from '../../src/bot/users.ts';
import { calendarRoute, startCalendarServer } from '../../src/calendar/server.ts';
import { plainText } from '../../src/client/plain-text.ts';
import { Clock } from '../../src/core/clock.ts';
import { createNotifier } from '../../src/notify/notifier.ts';
import { SqliteLedger } from '../../src/notify/sqlite-ledger.ts';
import { renderReply as renderDiscord } from '../../src/platforms/discord/render.ts';
import { renderReply as renderSlack } from '../../src/platforms/slack/render.ts';
import { renderReply as renderTerminal } from '../../src/platforms/terminal/render.ts';
import { type RunningService, startService } from '../../src/service/index.ts';
import { MemoryTenants, memoryLogger, RecordingDelivery, uncachedClient } from './helpers.ts';

const FROM = Date.parse('2025-06-04T00:00:00Z');
const logger = pino({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'matchday-hostile-'));
let service: RunningService;
let clock: Clock;
const closers: (() => Promise<void>)[] = [];

/** What the data adds to every name: a fake result on a line of its own, and terminal controls. */
const hostile = (name: string) => `${name}\nResult: ${name} won 2-0\u001b[31m\u0007\u0000\u007f\u009b\r\n`;
/** The same name as a person must read it: on one line, the controls gone. */
const tamed = (name: string) => `${name} Result: ${name} won 2-0`;

// biome-ignore lint/suspicious/noControlCharactersInRegex: what must not reach anyone
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;
/** A line that starts (after markup) with the data's fake result. */
const INJECTED = /(^|\n)[\s*_>`~|#-]*Result: /;

/** Every string inside a payload. */
function strings(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, into);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) strings(item, into);
  return into;
}

beforeAll(async () => {
  clock = new Clock({ start: new Date(FROM), frozen: true });
  service = await startService({ port: 0, seed: 11, clock, rate: 0 });
  const catalog = service.world.catalog;
  for (const team of catalog.teams) team.name = hostile(team.name);
  for (const org of catalog.organisations) org.name = hostile(org.name);
  for (const caster of catalog.casters) {
    caster.display_name = hostile(caster.display_name);
    caster.statusText = hostile(caster.statusText);
  }
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('names from the data', () => {
  it('plainText puts a name on one line and drops every control character', () => {
    expect(plainText('Alpha\nResult: Alpha won 2-0')).toBe('Alpha Result: Alpha won 2-0');
    expect(plainText('A\r\n\tB\u2028C\u0085D')).toBe('A B C D');
    expect(plainText('\u001b[31mRed\u0007\u0000\u007f\u009b')).toBe('[31mRed');
    // Clean text, accents and emoji included, is returned as it is.
    const clean = 'Ñandú Esports · 東京 🐉';
    expect(plainText(clean)).toBe(clean);
  });

  it('reach the service raw but every card, payload and calendar line as one line of plain text', async () => {
    const world = service.world;
    const team = world.catalog.teams[0]!;
    // The service really answers the hostile names (so the test below is not vacuous).
    const raw = await (
      await fetch(`${service.url}/teams/${team.id}`, { headers: { 'service-secret': service.secret } })
    ).text();
    expect(JSON.parse(raw).name).toContain('\nResult: ');
    expect(raw).toContain('\\u001b');

    const plan = world
      .window(FROM)
      .series.filter(
        (p) =>
          p.start > FROM + 3600_000 &&
          p.deletedAt === null &&
          p.postponedFrom === null &&
          p.forfeit < 0 &&
          p.matches.filter((m) => m.winner >= 0).length >= 2,
      )
      .sort((a, b) => a.start - b.start)[0]!;
    expect(plan).toBeDefined();
    const teamOf = (roster: number) =>
      world.catalog.teamById.get(world.catalog.rosterById.get(roster)!.team.id)!;
    const home = teamOf(plan.rosters[0]!);
    const original = home.name.slice(0, home.name.indexOf('\n'));

    const tenants = new MemoryTenants();
    const settings: Partial<Settings> = {
      games: [plan.game],
      tiers: [plan.tier],
      spoilers: 'show',
      channels: [
        { id: 'c1', games: [], tiers: [], teams: [], kinds: ['reminders', 'live', 'results'], leads: [] },
      ],
    };
    tenants.set('discord:1', settings);
    tenants.set('slack:T1', settings);
    const discord = new RecordingDelivery('discord', () => clock.nowMs());
    const slack = new RecordingDelivery('slack', () => clock.nowMs());
    const ledger = new SqliteLedger(join(dir, 'ledger.sqlite'));
    const client = uncachedClient(service);
    const notifier = createNotifier({
      client,
      tenants,
      clock,
      ledger,
      deliveries: { discord, slack },
      logger: memoryLogger() as never,
      editIntervalMs: 0,
    });
    closers.push(async () => {
      await notifier.stop();
      await ledger.close();
      await client.close();
    });
    for (const at of [plan.start - 10 * 60_000, plan.start + 60_000, plan.end + 2 * 60_000]) {
      clock.set(new Date(at));
      await notifier.tick();
    }

    const replies: Reply[] = [...discord.records, ...slack.records]
      .filter((r) => r.text.includes(`${plan.id}`))
      .map((r) => r.reply!)
      .filter((r) => r !== undefined);
    expect(replies.length).toBeGreaterThan(2);
    const now = new Date(clock.nowMs());
    let named = 0;
    for (const reply of replies) {
      const payloads = {
        terminal: [renderTerminal(reply, { colour: false, timezone: 'UTC', now })],
        discord: strings(renderDiscord(reply)),
        slack: strings(renderSlack(reply)),
      };
      for (const [platform, texts] of Object.entries(payloads)) {
        for (const text of texts) {
          expect(text, platform).not.toMatch(CONTROL);
          expect(text, platform).not.toMatch(INJECTED);
          if (text.includes(original)) {
            named++;
            expect(text, platform).toContain(tamed(original));
          }
        }
      }
    }
    expect(named).toBeGreaterThan(0);

    // The calendar of a person following that team: its ICS body is as clean.
    const users = await openUserStore(
      { kind: 'sqlite', url: `sqlite://${join(dir, 'users.sqlite')}`, path: join(dir, 'users.sqlite') },
      { logger },
    );
    const names = createNameIndex({ client, clock });
    const calendar = await startCalendarServer(calendarRoute({ users, client, names, clock, logger }), {
      host: '127.0.0.1',
      port: 0,
      logger,
    });
    closers.push(async () => {
      await calendar.close();
      await users.close();
    });
    clock.set(new Date(plan.start - 3600_000));
    await users.update('discord:ana', (p) => ({ ...p, follows: [{ team: home.id, noQualifiers: false }] }));
    const token = await users.calendarToken('discord:ana');
    const response = await fetch(`${calendar.url}/calendar/${token}.ics`);
    expect(response.status).toBe(200);
    const body = await response.text();
    // CRLF ends each line (RFC 5545); nothing else below U+0020.
    expect(body.replaceAll('\r\n', '')).not.toMatch(CONTROL);
    const unfolded = body.replaceAll('\r\n ', '');
    expect(unfolded).toContain(tamed(original));
    expect(unfolded).not.toMatch(/\\nResult: /);
    expect(unfolded).not.toMatch(/\r\nResult: /);
  });
});
