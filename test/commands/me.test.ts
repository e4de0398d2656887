/**
 * `/me` through the real runtime, with the real profile store on a SQLite file: personal follows
 * are stored per person (not per server), private, for anyone, and one person never sees another's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import type { CommandUser } from '../../src/bot/command.ts';
import { replyText } from '../../src/bot/reply.ts';
import { Runtime } from '../../src/bot/runtime.ts';
import { parseCommandText } from '../../src/bot/text-args.ts';
import { openUserStore, type UserStore } from '../../src/bot/users.ts';
import type { Platform } from '../../src/core/tenant-id.ts';
import { APIS, type Stack, startStack } from './helpers.ts';

let stack: Stack;
let users: UserStore;
let dir: string;
const runtimes = new Map<string, Runtime>();

describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
    dir = mkdtempSync(join(tmpdir(), 'matchday-me-'));
    const path = join(dir, 'matchday.sqlite');
    users = await openUserStore(
      { kind: 'sqlite', url: `sqlite://${path}`, path },
      { logger: pino({ level: 'silent' }) },
    );
  });
  afterAll(async () => {
    await users?.close();
    await stack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A runtime like the app's, with or without a calendar endpoint. */
  function runtime(calendar: boolean): Runtime {
    const key = String(calendar);
    let found = runtimes.get(key);
    if (!found) {
      found = new Runtime({
        commands,
        client: stack.client,
        names: stack.names,
        tenants: stack.tenants,
        users,
        ...(calendar ? { calendarUrl: (token: string) => `http://127.0.0.1:9/calendar/${token}.ics` } : {}),
        clock: stack.clock,
        logger: pino({ level: 'silent' }),
        perUserLimit: { count: 1_000_000, windowMs: 1000 },
      });
      runtimes.set(key, found);
    }
    return found;
  }

  const ANA: CommandUser = { id: 'u-ana', name: 'ana', isAdmin: false };
  const BO: CommandUser = { id: 'u-bo', name: 'bo', isAdmin: false };

  async function me(
    subcommand: string,
    args: Record<string, unknown> = {},
    options: { user?: CommandUser; tenant?: string; platform?: Platform; calendar?: boolean } = {},
  ) {
    const execution = await runtime(options.calendar ?? false).run({
      platform: options.platform ?? 'discord',
      tenantKey: options.tenant ?? 'guild-1',
      user: options.user ?? ANA,
      channel: { id: 'c-1' },
      command: 'me',
      subcommand,
      args,
    });
    return { ...execution, text: replyText(execution.reply) };
  }

  /** A team name the index knows, and its id. */
  function someTeam(index = 0): { id: number; name: string } {
    const team = stack.service.world.catalog.teams.filter((t) => t.active)[index]!;
    return { id: team.id, name: team.name };
  }

  describe('/me', () => {
    it('lets any member follow a team privately, stored for the person, not the server', async () => {
      const team = someTeam(0);
      const followed = await me('follow', { team: team.name }, { tenant: 'guild-1' });
      expect(followed.outcome).toBe('ok');
      expect(followed.reply.ephemeral).toBe(true);
      expect(followed.text).toContain(`Now following ${team.name}`);
      // No calendar is served here, so the answer does not promise one; where one is, it names it.
      expect(followed.text).not.toContain('calendar');
      const withCalendar = await me('follow', { team: team.name }, { tenant: 'guild-1', calendar: true });
      expect(withCalendar.text).toContain('and in your calendar (/me calendar)');
      expect((await users.get('discord:u-ana')).follows.map((f) => f.team)).toEqual([team.id]);
      // The same person in another server sees the same follows; the server's own follows are untouched.
      const elsewhere = await me('list', {}, { tenant: 'guild-2' });
      expect(elsewhere.text).toContain(team.name);
      expect((await stack.tenants.get('discord:guild-1')).follows).toEqual([]);
    });

    it("never shows one person's follows to another", async () => {
      const team = someTeam(1);
      await me('follow', { team: team.name }, { user: ANA });
      const other = await me('list', {}, { user: BO });
      expect(other.outcome).toBe('ok');
      expect(other.text).not.toContain(team.name);
      expect(other.text).toContain('You follow no teams yet');
      expect((await users.get('discord:u-bo')).follows).toEqual([]);
    });

    it('keeps Slack people apart by workspace (Slack user ids belong to a workspace)', async () => {
      const team = someTeam(2);
      await me('follow', { team: team.name }, { platform: 'slack', tenant: 'T1', user: BO });
      expect((await me('list', {}, { platform: 'slack', tenant: 'T1', user: BO })).text).toContain(team.name);
      expect((await me('list', {}, { platform: 'slack', tenant: 'T2', user: BO })).text).not.toContain(
        team.name,
      );
    });

    it('accepts a suggestion verbatim, as /team and /follow do', async () => {
      const ambiguous = await me('follow', { team: 'Nova' }, { user: { ...BO, id: 'u-cy' } });
      expect(ambiguous.outcome).toBe('user-error');
      expect(ambiguous.suggestions?.length).toBeGreaterThan(1);
      const pick = ambiguous.suggestions![0]!;
      const taken = await me('follow', { team: pick }, { user: { ...BO, id: 'u-cy' } });
      expect(taken.outcome).toBe('ok');
      expect(taken.text).toContain(pick.replace(/ \([A-Z0-9]+\)$/, ''));
    });

    it('stores tier and qualifier options, and following again updates them in place', async () => {
      const user = { ...BO, id: 'u-dee' };
      const team = someTeam(3);
      const at = stack.clock.now().toISOString();
      await me('follow', { team: team.name, tier: '2', qualifiers: 'no' }, { user });
      // Since when: a new follow hears of nothing already live or over (test/notify/dm.test.ts).
      expect((await users.get('discord:u-dee')).follows).toEqual([
        { team: team.id, tier: 2, noQualifiers: true, since: at },
      ]);
      stack.clock.set(new Date(Date.parse(at) + 3600_000));
      try {
        const again = await me('follow', { team: team.name }, { user });
        expect(again.text).toContain(`Updated ${team.name}`);
      } finally {
        stack.clock.set(new Date(at));
      }
      // Following again changes the options and keeps when it began.
      expect((await users.get('discord:u-dee')).follows).toEqual([
        { team: team.id, noQualifiers: false, since: at },
      ]);
      const gone = await me('unfollow', { team: team.name }, { user });
      expect(gone.text).toContain(`You no longer follow ${team.name}`);
      const notFollowed = await me('unfollow', { team: team.name }, { user });
      expect(notFollowed.outcome).toBe('user-error');
      expect(notFollowed.message).toContain('You do not follow');
    });

    it("follows an organisation's active teams across its games, and unfollows them together", async () => {
      const user = { ...BO, id: 'u-org' };
      const world = stack.service.world;
      // An organisation with active teams in two games or more, from the world.
      const org = world.catalog.organisations.find(
        (o) =>
          new Set(
            o.teams
              .map((t) => world.catalog.teamById.get(t.id)!)
              .filter((t) => t.active)
              .map((t) => t.game.id),
          ).size >= 2,
      )!;
      const active = org.teams.map((t) => world.catalog.teamById.get(t.id)!).filter((t) => t.active);
      const inactive = org.teams.map((t) => world.catalog.teamById.get(t.id)!).filter((t) => !t.active);
      const other = someTeam(5);
      expect(active.some((t) => t.id === other.id)).toBe(false);
      await me('follow', { team: other.name }, { user });

      const followed = await me('follow', { organisation: org.name, tier: '2' }, { user });
      expect(followed.outcome, followed.text).toBe('ok');
      expect(followed.text).toContain(`Now following ${org.name}, just for you:`);
      for (const t of active) expect(followed.text).toContain(t.name);
      for (const t of inactive) expect(followed.text).not.toContain(t.name);
      const since = stack.clock.now().toISOString();
      expect((await users.get('discord:u-org')).follows).toEqual([
        { team: other.id, noQualifiers: false, since },
        ...active.map((t) => ({ team: t.id, tier: 2, noQualifiers: false, since })),
      ]);

      const gone = await me('unfollow', { organisation: org.name }, { user });
      expect(gone.text).toContain(`You no longer follow ${org.name}`);
      expect((await users.get('discord:u-org')).follows).toEqual([
        { team: other.id, noQualifiers: false, since },
      ]);
      const again = await me('unfollow', { organisation: org.name }, { user });
      expect(again.outcome).toBe('user-error');
      expect(again.message).toContain(`You follow none of ${org.name}'s teams`);

      // A team and an organisation at once, or neither, is refused with what to give instead.
      const both = await me('follow', { team: other.name, organisation: org.name }, { user });
      expect(both.outcome).toBe('user-error');
      expect(both.message).toContain('Give a team or an organisation, not both');
      const neither = await me('follow', {}, { user });
      expect(neither.outcome).toBe('user-error');
      expect(neither.message).toContain('organisation:<its name>');
      const unknown = await me('follow', { organisation: 'Zzyzx Qqqq' }, { user });
      expect(unknown.outcome).toBe('user-error');
      expect(unknown.message).toMatch(/organisation/);
    });

    it('saves reminders, time zone and quiet hours, and says what was wrong with bad input', async () => {
      const user = { ...BO, id: 'u-eve' };
      expect((await me('reminders', { leads: '60, 15, 2h' }, { user })).text).toContain(
        'Your reminders: 15, 60, 120 minutes before.',
      );
      expect((await me('timezone', { zone: 'berlin' }, { user })).text).toContain('Europe/Berlin');
      expect((await me('quiet', { from: '23:00', to: '07:30' }, { user })).text).toContain(
        'Quiet hours: 23:00 to 07:30 (Europe/Berlin).',
      );
      expect(await users.get('discord:u-eve')).toMatchObject({
        leads: [15, 60, 120],
        timezone: 'Europe/Berlin',
        quiet: { from: '23:00', to: '07:30' },
      });
      const half = await me('quiet', { from: '23:00' }, { user });
      expect(half.outcome).toBe('user-error');
      expect(half.message).toContain('Give both from and to');
      const badTime = await me('quiet', { from: '25:00', to: '07:00' }, { user });
      expect(badTime.message).toContain('"25:00" is not a time of day; use HH:MM');
      const badLead = await me('reminders', { leads: 'soon' }, { user });
      expect(badLead.message).toContain('"soon" is not a lead time');
      // Nothing bad was stored.
      expect((await users.get('discord:u-eve')).quiet).toEqual({ from: '23:00', to: '07:30' });
      expect((await me('quiet', {}, { user })).text).toContain('Quiet hours off.');
      expect((await users.get('discord:u-eve')).quiet).toBeUndefined();
    });

    it('takes typed lines as a person writes them: quiet 23:00-08:00, 9:00, dms results', async () => {
      const user = { ...BO, id: 'u-typed' };
      /** A line typed in the terminal or on Slack: parsed, then run. */
      const typed = async (line: string) => {
        const parsed = parseCommandText(line, commands);
        return me(parsed.subcommand!, parsed.args, { user });
      };
      expect((await typed('/me quiet 23:00-08:00')).text).toContain('Quiet hours: 23:00 to 08:00 (UTC).');
      expect((await users.get('discord:u-typed')).quiet).toEqual({ from: '23:00', to: '08:00' });
      expect((await typed('/me quiet 22:30–7:00')).text).toContain('Quiet hours: 22:30 to 07:00');
      expect((await typed('/me quiet 9:00 7:30')).text).toContain('Quiet hours: 09:00 to 07:30');
      // Spaces around the dash (a hyphen, an en or em dash) or a word: one range, not two values.
      for (const [line, from, to] of [
        ['/me quiet 22:30 – 7:00', '22:30', '07:00'],
        ['/me quiet 22:30 - 07:00', '22:30', '07:00'],
        ['/me quiet 21:00 — 6:15', '21:00', '06:15'],
        ['/me quiet 23:00 to 07:00', '23:00', '07:00'],
        ['/me quiet 23:15 bis 7:45', '23:15', '07:45'],
      ] as const) {
        const said = await typed(line);
        expect(said.outcome, line).toBe('ok');
        expect(said.text).toContain(`Quiet hours: ${from} to ${to}`);
        expect((await users.get('discord:u-typed')).quiet).toEqual({ from, to });
      }
      expect((await typed('/me quiet 9:00 7:30')).text).toContain('Quiet hours: 09:00 to 07:30');
      // Bad forms say what is right, and change nothing.
      for (const [line, message] of [
        [
          '/me quiet 25:00-08:00',
          '"25:00-08:00" is not a range of two times of day; use HH:MM-HH:MM, e.g. 23:00-08:00 or 22:30 – 7:00.',
        ],
        [
          '/me quiet 25:00 - 08:00',
          '"25:00 - 08:00" is not a range of two times of day; use HH:MM-HH:MM, e.g. 23:00-08:00 or 22:30 – 7:00.',
        ],
        ['/me quiet 22:30 – 7', '"22:30 – 7" is not a range of two times of day; use HH:MM-HH:MM'],
        ['/me quiet 22:30 -', 'to: "-" is not a time of day; use HH:MM, e.g. 23:00.'],
        ['/me quiet noon', 'from: "noon" is not a time of day; use HH:MM, e.g. 23:00.'],
        ['/me quiet 25:00 08:00', 'from: "25:00" is not a time of day'],
        ['/me quiet 22:30 – 22:30', 'from and to are the same time'],
      ] as const) {
        const bad = await typed(line);
        expect(bad.outcome, line).toBe('user-error');
        expect(bad.message).toContain(message);
        expect(bad.message).not.toContain('can be read more than one way');
      }
      expect((await users.get('discord:u-typed')).quiet).toEqual({ from: '09:00', to: '07:30' });
      // A bare kind turns that kind on; the others stay as they were.
      await typed('/me dms reminders:false live:false results:false');
      expect((await typed('/me dms results')).text).toContain('By direct message: results.');
      expect((await typed('/me dms live')).text).toContain('By direct message: live cards and results.');
      expect((await users.get('discord:u-typed')).dms).toEqual(['live', 'results']);
      expect(parseCommandText('/me dms live:false results', commands).args).toEqual({
        live: 'false',
        results: 'true',
      });
    });

    it('chooses what comes by DM and how results appear there; a bad policy is refused', async () => {
      const user = { ...BO, id: 'u-dms' };
      // Defaults: everything, results behind a spoiler.
      const shown = await me('dms', {}, { user });
      expect(shown.text).toContain('reminders, live cards and results');
      expect(shown.text).toContain('behind a spoiler');
      expect((await me('dms', { live: false }, { user })).text).toContain(
        'By direct message: reminders and results.',
      );
      expect((await me('dms', { reminders: false, results: false }, { user })).text).toContain(
        'By direct message: nothing.',
      );
      expect((await users.get('discord:u-dms')).dms).toEqual([]);
      expect((await me('dms', { results: true }, { user })).text).toContain('By direct message: results.');
      expect((await me('spoilers', { policy: 'show' }, { user })).text).toContain(
        'Results in your DMs: shown.',
      );
      const bad = await me('spoilers', { policy: 'blur' }, { user });
      expect(bad.outcome).toBe('user-error');
      expect(await users.get('discord:u-dms')).toMatchObject({ dms: ['results'], spoilers: 'show' });
    });

    it("sets the language of a person's DMs, answering in it, and refuses one Matchday lacks", async () => {
      const user = { ...BO, id: 'u-lang' };
      expect((await users.get('discord:u-lang')).language).toBe('en');
      const german = await me('language', { code: 'de' }, { user });
      expect(german.text).toContain('Deine Direktnachrichten ab jetzt: Deutsch.');
      expect((await users.get('discord:u-lang')).language).toBe('de');
      const bad = await me('language', { code: 'fr' }, { user });
      expect(bad.outcome).toBe('user-error');
      expect((await users.get('discord:u-lang')).language).toBe('de');
    });

    it('prints a private calendar URL only where calendars are served; renew revokes the old one', async () => {
      const user = { ...BO, id: 'u-fay' };
      const off = await me('calendar', {}, { user });
      expect(off.outcome).toBe('user-error');
      expect(off.message).toContain('CALENDAR_PORT');
      expect((await users.get('discord:u-fay')).calendar).toBeUndefined();

      const shown = await me('calendar', {}, { user, calendar: true });
      const first = /calendar\/([A-Za-z0-9_-]{43})\.ics/.exec(shown.text)?.[1];
      expect(first).toBeDefined();
      expect(shown.reply.ephemeral).toBe(true);
      // Shown again: the same URL.
      expect((await me('calendar', {}, { user, calendar: true })).text).toContain(first!);
      expect((await users.ownerOfToken(first!))?.userKey).toBe('discord:u-fay');

      const renewed = await me('calendar', { action: 'renew' }, { user, calendar: true });
      const second = /calendar\/([A-Za-z0-9_-]{43})\.ics/.exec(renewed.text)?.[1];
      expect(second).toBeDefined();
      expect(second).not.toBe(first);
      expect(renewed.text).toContain('The old URL no longer works.');
      expect(await users.ownerOfToken(first!)).toBeUndefined();
      expect((await users.ownerOfToken(second!))?.userKey).toBe('discord:u-fay');
      // Another person's calendar is their own token.
      const theirs = await me('calendar', {}, { user: { ...BO, id: 'u-gil' }, calendar: true });
      expect(theirs.text).not.toContain(second!);
    });
  });

  describe('/settings calendar', () => {
    it("gives admins a channel's calendar URL, for set-up channels only, and renews it", async () => {
      const admin: CommandUser = { id: 'u-admin', name: 'admin', isAdmin: true };
      await stack.tenants.save('discord:g-settings-cal', {
        ...(await stack.tenants.get('discord:g-settings-cal')),
        channels: [
          { id: 'c-news', name: 'news', games: [], tiers: [], teams: [], kinds: ['reminders'], leads: [] },
        ],
      });
      const run = (args: Record<string, unknown>, user: CommandUser, calendar = true) =>
        runtime(calendar).run({
          platform: 'discord',
          tenantKey: 'g-settings-cal',
          user,
          channel: { id: 'c-news' },
          command: 'settings',
          subcommand: 'calendar',
          args,
        });
      const shown = await run({ channel: 'c-news' }, admin);
      expect(shown.outcome).toBe('ok');
      const text = replyText(shown.reply);
      expect(text).toContain('Calendar of #news');
      const token = /calendar\/([A-Za-z0-9_-]{43})\.ics/.exec(text)?.[1];
      expect((await users.channelOfToken(token!))?.channelId).toBe('c-news');
      expect((await run({ channel: 'c-news' }, ANA)).outcome).not.toBe('ok');
      const unknown = await run({ channel: 'c-other' }, admin);
      expect(unknown.outcome).toBe('user-error');
      expect((await run({ channel: 'c-news' }, admin, false)).message).toContain('CALENDAR_PORT');
      const renewed = replyText((await run({ channel: 'c-news', action: 'renew' }, admin)).reply);
      expect(renewed).toContain('The old URL no longer works.');
      expect(await users.channelOfToken(token!)).toBeUndefined();
    });

    it('suggests calendar commands that run as typed (the terminal: events point to the calendar)', async () => {
      const admin: CommandUser = { id: 'local', name: 'you', isAdmin: true };
      await stack.tenants.save('terminal:local', {
        ...(await stack.tenants.get('terminal:local')),
        channels: [
          {
            id: 'terminal',
            name: 'terminal',
            games: [],
            tiers: [],
            teams: [],
            kinds: ['reminders'],
            leads: [],
          },
        ],
      });
      const typed = (line: string) => {
        const parsed = parseCommandText(line, commands);
        return runtime(true).run({
          platform: 'terminal',
          tenantKey: 'local',
          user: admin,
          channel: { id: 'terminal', name: 'terminal' },
          command: parsed.command,
          ...(parsed.subcommand ? { subcommand: parsed.subcommand } : {}),
          args: parsed.args,
        });
      };
      // Scheduled events are Discord's: the answer offers the channel's calendar, with the channel.
      const events = await typed('/settings events channel:#terminal enabled:true');
      expect(events.outcome).toBe('user-error');
      const offered = /\/settings calendar[^)]*/.exec(events.message ?? '')?.[0];
      expect(offered).toBe('/settings calendar channel:#terminal');
      const shown = await typed(offered!);
      expect(shown.outcome).toBe('ok');
      const text = replyText(shown.reply);
      const token = /calendar\/([A-Za-z0-9_-]{43})\.ics/.exec(text)?.[1];
      expect((await users.channelOfToken(token!))?.channelId).toBe('terminal');
      // Its renew hint names the channel too (channel: is required), and runs as shown.
      const renew = /\/settings calendar \S+ action:renew/.exec(text)?.[0];
      expect(renew).toBe('/settings calendar channel:#terminal action:renew');
      const renewed = await typed(renew!);
      expect(renewed.outcome).toBe('ok');
      expect(replyText(renewed.reply)).toContain('The old URL no longer works.');
      expect(await users.channelOfToken(token!)).toBeUndefined();
      // A channel that is not set up is offered as given, and that command says what to do.
      const elsewhere = await typed('/settings events channel:#matches enabled:true');
      expect(elsewhere.message).toContain('/settings calendar channel:#matches');
      const notSetUp = await typed('/settings calendar channel:#matches');
      expect(notSetUp.outcome).toBe('user-error');
      expect(notSetUp.message).toContain('/settings channel-add');
    });
  });

  describe('paused DM reminders', () => {
    it('are told once in the next private answer, and following again resumes them', async () => {
      const user = { ...BO, id: 'u-paused' };
      await users.update('discord:u-paused', (p) => ({
        ...p,
        paused: { reason: 'DM_CLOSED: closed', at: new Date().toISOString() },
        notices: ['Your reminders by direct message are paused.'],
      }));
      const first = await me('list', {}, { user });
      expect(first.text).toContain('Your reminders by direct message are paused.');
      const second = await me('list', {}, { user });
      expect(second.text).not.toContain('Your reminders by direct message are paused.');
      await me('follow', { team: someTeam(4).name }, { user });
      expect((await users.get('discord:u-paused')).paused).toBeUndefined();
    });
  });
});
