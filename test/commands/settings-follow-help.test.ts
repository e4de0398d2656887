import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import type { ChannelCheck } from '../../src/bot/command.ts';
import { replyText } from '../../src/bot/reply.ts';
import { parseCommandText } from '../../src/bot/text-args.ts';
import type { Platform } from '../../src/core/tenant-id.ts';
import {
  APIS,
  call,
  commandNamed,
  MEMBER,
  runDirect,
  type Stack,
  startStack,
  tenantWith,
} from './helpers.ts';

let stack: Stack;
describe.each(APIS)('on %s', (api) => {
  beforeAll(async () => {
    stack = await startStack({ api });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const stored = (tenant: string) => stack.tenants.get(`terminal:${tenant}`);

  describe('/settings', () => {
    it('shows the defaults, and is for admins only', async () => {
      const tenant = await tenantWith(stack);
      const shown = await call(stack, 'settings', {}, { tenant, subcommand: 'show' });
      expect(shown.outcome).toBe('ok');
      expect(shown.text).toContain('Games: all');
      expect(shown.text).toContain('Tiers: 1, 2');
      expect(shown.text).toContain('Timezone: UTC');
      expect(shown.text).toContain('Reminders: 15 min before');
      expect(shown.reply.ephemeral).toBe(true);
      const member = await call(stack, 'settings', {}, { tenant, subcommand: 'show', user: MEMBER });
      expect(member.outcome).not.toBe('ok');
    });

    it('changes games, tiers, timezone, spoilers, reminders, digest and live updates, and stores them', async () => {
      const world = stack.service.world;
      const [a, b] = [world.catalog.games[0]!.game, world.catalog.games[1]!.game];
      const tenant = await tenantWith(stack);
      expect(
        (
          await call(
            stack,
            'settings',
            { games: `${a.abbreviation.toLowerCase()}, ${b.title}` },
            { tenant, subcommand: 'games' },
          )
        ).outcome,
      ).toBe('ok');
      expect((await stored(tenant)).games).toEqual([a.id, b.id]);
      await call(stack, 'settings', { tiers: '3, 1' }, { tenant, subcommand: 'tiers' });
      expect((await stored(tenant)).tiers).toEqual([1, 3]);
      await call(stack, 'settings', { zone: 'berlin' }, { tenant, subcommand: 'timezone' });
      expect((await stored(tenant)).timezone).toBe('Europe/Berlin');
      await call(stack, 'settings', { policy: 'spoiler' }, { tenant, subcommand: 'spoilers' });
      expect((await stored(tenant)).spoilers).toBe('spoiler');
      const reminders = await call(
        stack,
        'settings',
        { minutes: '60, 15, 2h' },
        { tenant, subcommand: 'reminders' },
      );
      expect(reminders.text).toContain('Saved. Reminders: 15, 60, 120 minutes before.');
      expect((await stored(tenant)).reminderLeads).toEqual([15, 60, 120]);
      await call(stack, 'settings', { time: '07:30', when_empty: 'skip' }, { tenant, subcommand: 'digest' });
      expect((await stored(tenant)).digestTime).toBe('07:30');
      expect((await stored(tenant)).digestWhenEmpty).toBe('skip');
      await call(stack, 'settings', { enabled: false }, { tenant, subcommand: 'live' });
      expect((await stored(tenant)).liveUpdates).toBe(false);
      await call(stack, 'settings', { games: 'all' }, { tenant, subcommand: 'games' });
      expect((await stored(tenant)).games).toEqual([]);
    });

    it('refuses bad values with a message saying what would be right, and stores nothing', async () => {
      const tenant = await tenantWith(stack);
      const before = await stored(tenant);
      const cases: [string, Record<string, unknown>, RegExp][] = [
        ['games', { games: 'chess' }, /No game matches "chess"/],
        ['tiers', { tiers: '0,9' }, /tiers are 1 \(top\) to 4/],
        ['timezone', { zone: 'Mars/Base' }, /not a time zone/],
        ['reminders', { minutes: '0' }, /minutes from 1 to 1440/],
        ['reminders', { minutes: '1,2,3,4,5,6' }, /At most 5/],
        ['digest', { time: '25:00' }, /HH:MM/],
        ['digest', {}, /Give a time/],
      ];
      for (const [sub, args, message] of cases) {
        const result = await call(stack, 'settings', args, { tenant, subcommand: sub });
        expect(result.outcome, `${sub} ${JSON.stringify(args)}`).toBe('user-error');
        expect(result.message).toMatch(message);
      }
      expect(await stored(tenant)).toEqual(before);
    });

    it('turns threads and scheduled events on per channel; events only on Discord, with Manage Events', async () => {
      const allowing: ChannelCheck = { check: async (id) => ({ ok: true, name: `name-of-${id}` }) };
      const terminal = await tenantWith(stack);
      const noThreads = await call(
        stack,
        'settings',
        { channel: 'c-x', enabled: true },
        { tenant: terminal, subcommand: 'threads' },
      );
      expect(noThreads.message).toContain('The terminal has no threads');
      const noEvents = await call(
        stack,
        'settings',
        { channel: 'c-x', enabled: true },
        { tenant: terminal, subcommand: 'events' },
      );
      expect(noEvents.message).toContain('Scheduled events are a Discord feature');

      const guild = await tenantWith(stack, {}, 'discord');
      const on = { platform: 'discord' as const, tenant: guild };
      const unknown = await call(
        stack,
        'settings',
        { channel: 'c-live', enabled: true },
        { ...on, subcommand: 'threads' },
      );
      expect(unknown.message).toContain('That channel is not set up');
      await call(
        stack,
        'settings',
        { channel: 'c-live' },
        { ...on, subcommand: 'channel-add', channels: allowing },
      );
      const threads = await call(
        stack,
        'settings',
        { channel: 'c-live', enabled: true },
        { ...on, subcommand: 'threads' },
      );
      expect(threads.outcome).toBe('ok');
      expect(replyText(threads.reply)).toContain('Threads in #name-of-c-live: on');
      const lacking: ChannelCheck = {
        ...allowing,
        events: async () => ({ ok: false, missing: ['Manage Events'] }),
      };
      const refused = await call(
        stack,
        'settings',
        { channel: 'c-live', enabled: true },
        { ...on, subcommand: 'events', channels: lacking },
      );
      expect(refused.message).toContain('missing Manage Events');
      const granted: ChannelCheck = { ...allowing, events: async () => ({ ok: true }) };
      const events = await call(
        stack,
        'settings',
        { channel: 'c-live', enabled: true },
        { ...on, subcommand: 'events', channels: granted },
      );
      expect(replyText(events.reply)).toContain('follows no team yet');
      const channel = (await stack.tenants.get(`discord:${guild}`)).channels[0]!;
      expect(channel).toMatchObject({ threads: true, events: true });
      await call(stack, 'settings', { channel: 'c-live', enabled: false }, { ...on, subcommand: 'threads' });
      expect((await stack.tenants.get(`discord:${guild}`)).channels[0]!.threads).toBeUndefined();
    });

    it('adds, changes and removes notification channels, checking permissions first', async () => {
      const world = stack.service.world;
      const team = world.catalog.teams[0]!;
      const tenant = await tenantWith(stack);
      const refusing: ChannelCheck = {
        check: async () => ({ ok: false, missing: ['Send Messages', 'Embed Links'] }),
      };
      const refused = await call(
        stack,
        'settings',
        { channel: 'c-news' },
        { tenant, subcommand: 'channel-add', channels: refusing },
      );
      expect(refused.outcome).toBe('user-error');
      expect(refused.message).toContain('missing Send Messages, Embed Links');
      expect((await stored(tenant)).channels).toEqual([]);
      const allowing: ChannelCheck = { check: async (id) => ({ ok: true, name: `name-of-${id}` }) };
      const added = await call(
        stack,
        'settings',
        {
          channel: 'c-news',
          tiers: '1',
          teams: team.name,
          kinds: 'reminders live',
          leads: '30',
          role: 'r-fans',
        },
        { tenant, subcommand: 'channel-add', channels: allowing },
      );
      expect(added.outcome).toBe('ok');
      const channel = (await stored(tenant)).channels[0]!;
      expect(channel).toMatchObject({
        id: 'c-news',
        name: 'name-of-c-news',
        tiers: [1],
        teams: [team.id],
        kinds: ['reminders', 'live'],
        leads: [30],
        role: 'r-fans',
        // Subscribed now: nothing already over is announced in the new channel.
        since: stack.clock.now().toISOString(),
      });
      const again = await call(
        stack,
        'settings',
        { channel: 'c-news' },
        { tenant, subcommand: 'channel-add', channels: allowing },
      );
      expect(again.code).toBe('CHANNEL_EXISTS');
      await call(
        stack,
        'settings',
        { channel: 'c-news', tiers: 'all', kinds: 'all' },
        { tenant, subcommand: 'channel-set', channels: allowing },
      );
      expect((await stored(tenant)).channels[0]).toMatchObject({
        tiers: [],
        kinds: ['reminders', 'live', 'results', 'digest'],
        teams: [team.id],
      });
      const bad = await call(
        stack,
        'settings',
        { channel: 'c-news', kinds: 'everything-ish' },
        { tenant, subcommand: 'channel-set' },
      );
      expect(bad.message).toContain('is not a notification kind');
      await call(stack, 'settings', { channel: 'c-news' }, { tenant, subcommand: 'channel-remove' });
      expect((await stored(tenant)).channels).toEqual([]);
      const gone = await call(
        stack,
        'settings',
        { channel: 'c-news' },
        { tenant, subcommand: 'channel-remove' },
      );
      expect(gone.code).toBe('UNKNOWN_CHANNEL');
    });
  });

  describe('/follow', () => {
    it('follows, lists and unfollows teams; members may list but not change', async () => {
      const world = stack.service.world;
      const team = world.catalog.teams[4]!;
      const tenant = await tenantWith(stack);
      const empty = await call(stack, 'follow', {}, { tenant, subcommand: 'list', user: MEMBER });
      expect(empty.text).toContain('follows no teams yet');
      const denied = await call(
        stack,
        'follow',
        { team: team.name },
        { tenant, subcommand: 'team', user: MEMBER },
      );
      expect(denied.outcome).toBe('user-error');
      expect(denied.code).toBe('ADMIN_ONLY');
      expect((await stored(tenant)).follows).toEqual([]);
      const followed = await call(stack, 'follow', { team: team.name }, { tenant, subcommand: 'team' });
      expect(followed.text).toContain(`Now following ${team.name}`);
      expect((await stored(tenant)).follows).toEqual([team.id]);
      const listed = await call(stack, 'follow', {}, { tenant, subcommand: 'list', user: MEMBER });
      expect(listed.text).toContain(team.name);
      const removed = await call(
        stack,
        'follow',
        { team: String(team.id) },
        { tenant, subcommand: 'remove' },
      );
      expect(removed.text).toContain(`No longer following ${team.name}`);
      expect((await stored(tenant)).follows).toEqual([]);
      const notFollowing = await call(stack, 'follow', { team: team.name }, { tenant, subcommand: 'remove' });
      expect(notFollowing.code).toBe('NOT_FOLLOWING');
      expect(followed.upstream + listed.upstream + removed.upstream).toBe(0);
    });

    it("follows an organisation's active teams at once and removes them together; admins only", async () => {
      const world = stack.service.world;
      const activeOf = (o: (typeof world.catalog.organisations)[number]) =>
        o.teams.map((t) => world.catalog.teamById.get(t.id)!).filter((t) => t.active);
      const org = world.catalog.organisations.find((o) => activeOf(o).length >= 2)!;
      const teams = activeOf(org);
      const tenant = await tenantWith(stack);
      const denied = await call(
        stack,
        'follow',
        { organisation: org.name },
        { tenant, subcommand: 'organisation', user: MEMBER },
      );
      expect(denied.code).toBe('ADMIN_ONLY');
      const followed = await call(
        stack,
        'follow',
        { organisation: org.name },
        { tenant, subcommand: 'organisation' },
      );
      expect(followed.outcome, followed.text).toBe('ok');
      expect(followed.text).toContain(`Now following ${org.name}:`);
      for (const t of teams) expect(followed.text).toContain(t.name);
      expect((await stored(tenant)).follows).toEqual(teams.map((t) => t.id));
      const listed = await call(stack, 'follow', {}, { tenant, subcommand: 'list', user: MEMBER });
      for (const t of teams) expect(listed.text).toContain(t.name);
      const both = await call(
        stack,
        'follow',
        { team: teams[0]!.name, organisation: org.name },
        { tenant, subcommand: 'remove' },
      );
      expect(both.code).toBe('TEAM_OR_ORGANISATION');
      const removed = await call(
        stack,
        'follow',
        { organisation: org.name },
        { tenant, subcommand: 'remove' },
      );
      expect(removed.text).toContain(`No longer following ${org.name}`);
      expect((await stored(tenant)).follows).toEqual([]);
      const again = await call(stack, 'follow', { organisation: org.name }, { tenant, subcommand: 'remove' });
      expect(again.code).toBe('NOT_FOLLOWING');
      const neither = await call(stack, 'follow', {}, { tenant, subcommand: 'remove' });
      expect(neither.code).toBe('EMPTY_NAME');
      expect(neither.text).toContain('/follow remove organisation:<its name>');
    });
  });

  describe('/help', () => {
    it('lists every command from the declarations, admin-only ones for admins only', async () => {
      const admin = await call(stack, 'help');
      for (const c of commands) expect(admin.text).toContain(`/${c.name} ${c.description}`);
      const member = await call(stack, 'help', {}, { user: MEMBER });
      expect(member.text).not.toContain('/settings');
      expect(member.text).toContain('/series');
    });

    it('marks an admin-only command once, from its flag, not twice', async () => {
      const admin = await call(stack, 'help');
      const line = admin.text.split('\n').find((l) => l.includes('/settings'))!;
      expect(line).toBeDefined();
      expect(line.match(/\(admins\)/g)).toHaveLength(1);
      // Commands that are not admin-only carry no admin mark.
      const seriesLine = admin.text.split('\n').find((l) => l.includes('/series '))!;
      expect(seriesLine).not.toContain('(admins)');
      for (const c of commands) expect(c.description).not.toMatch(/\(admins\)/);
    });

    it('gives examples that work as typed, on the platforms where options are typed', async () => {
      let examples = 0;
      for (const command of commands.filter((c) => !c.subcommands)) {
        const help = await call(stack, 'help', { command: command.name });
        const example = help.text.match(/^Example: (\/.+)$/m)?.[1];
        if (!example) continue;
        examples++;
        const parsed = parseCommandText(example, commands);
        const answer = await call(stack, parsed.command, parsed.args);
        expect(answer.outcome, example).toBe('ok');
      }
      expect(examples).toBeGreaterThanOrEqual(3);
      // The note on quoting names a real team too, and /team takes it as shown.
      const overview = await call(stack, 'help');
      const quoted = overview.text.match(/put values with spaces in quotes, e\.g\. (team:"[^"]+")/)?.[1];
      expect(quoted).toBeDefined();
      const parsed = parseCommandText(`/team ${quoted}`, commands);
      expect((await call(stack, parsed.command, parsed.args)).outcome, quoted).toBe('ok');
      // Discord fills options in its own form: no typed example there.
      const discord = await call(stack, 'help', { command: 'team' }, { platform: 'discord' });
      expect(discord.text).not.toContain('Example:');
      expect(discord.text).toContain('Usage: /team <team> [count]');
    });

    it("explains one command's options with their types, ranges and choices", async () => {
      const result = await call(stack, 'help', { command: 'series' });
      expect(result.text).toContain('limit (integer, 1 to 20)');
      expect(result.text).toContain('when (string, one of upcoming, live, recent)');
      const settings = await call(stack, 'help', { command: '/settings' });
      expect(settings.text).toContain('/settings channel-add');
      const unknown = await call(stack, 'help', { command: 'dance' });
      expect(unknown.outcome).toBe('user-error');
      expect(unknown.message).toContain('There is no command "dance"');
    });
  });

  describe('wording per platform', () => {
    const places: [Platform, string, string][] = [
      ['discord', 'server', 'this server'],
      ['slack', 'workspace', 'this workspace'],
      ['terminal', 'chat', 'this chat'],
    ];
    const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

    it.each(places)(
      'names a %s tenant "%s" in follow, settings and admin messages',
      async (platform, noun, here) => {
        const others = places.map(([, n]) => n).filter((n) => n !== noun);
        const tenant = await tenantWith(stack, {}, platform);
        const empty = await call(stack, 'follow', {}, { tenant, platform, subcommand: 'list', user: MEMBER });
        expect(empty.text).toContain(`${capital(here)} follows no teams yet`);
        const team = stack.service.world.catalog.teams[3]!;
        const denied = await call(
          stack,
          'follow',
          { team: team.name },
          { tenant, platform, subcommand: 'team', user: MEMBER },
        );
        expect(denied.code).toBe('ADMIN_ONLY');
        expect(denied.message).toContain(`Only admins of ${here}`);
        const direct = await runDirect(
          stack,
          commandNamed('settings'),
          {},
          { platform, subcommand: 'show', user: MEMBER },
        ).catch((error: Error) => error);
        expect((direct as Error).message).toBe(
          `Only admins of ${here} can view or change Matchday settings.`,
        );
        const allowing: ChannelCheck = { check: async (id) => ({ ok: true, name: `name-of-${id}` }) };
        const added = await call(
          stack,
          'settings',
          { channel: 'c-news' },
          { tenant, platform, subcommand: 'channel-add', channels: allowing },
        );
        expect(added.outcome).toBe('ok');
        expect(added.text).toContain(`games (${noun} default); tiers (${noun} default)`);
        for (const text of [empty.text, denied.message ?? '', added.text]) {
          for (const other of others) expect(text).not.toMatch(new RegExp(`\\b${other}\\b`));
          expect(text).not.toContain('as server');
        }
      },
    );

    it("never says a platform's word in declarations shown on every platform", () => {
      const texts: string[] = [];
      for (const c of commands) {
        texts.push(c.description);
        for (const o of Object.values((c.options ?? {}) as Record<string, { description: string }>))
          texts.push(o.description);
        for (const sub of Object.values(c.subcommands ?? {})) {
          texts.push(sub.description);
          for (const o of Object.values(sub.options ?? {})) texts.push(o.description);
        }
      }
      for (const text of texts) expect(text).not.toMatch(/\b(server|workspace)\b/i);
    });
  });
});
