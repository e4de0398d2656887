/**
 * Matchday on Slack end to end: the real Bolt app, in Socket Mode and in HTTP mode, against the
 * loopback fake, answering with the real runtime on the local service at a frozen instant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../../commands/index.ts';
import type { Reply } from '../../../src/bot/reply.ts';
import type { CommandCall } from '../../../src/bot/runtime.ts';
import { defaultSettings } from '../../../src/bot/settings.ts';
import { parseCommandText } from '../../../src/bot/text-args.ts';
import { SPOILER_MASK } from '../../../src/platforms/slack/mrkdwn.ts';
import { REVEAL_ACTION, renderReply } from '../../../src/platforms/slack/render.ts';
import { blockKitProblems } from '../../fakes/slack/limits.ts';
import { formBody, signedPost } from '../../fakes/slack/signed-post.ts';
import type { ResponsePost } from '../../fakes/slack.ts';
import { CHANNELS, COMMAND_NAMES, type Mode, type Rig, SIGNING_SECRET, startRig, USERS } from './harness.ts';

type Json = Record<string, unknown>;

const TENANT = 'slack:T0MATCHDAY';

function blocksOf(post: ResponsePost): Json[] {
  return (post.body.blocks as Json[] | undefined) ?? [];
}

function header(post: ResponsePost): string {
  const first = blocksOf(post).find((b) => b.type === 'header');
  return String((first?.text as Json | undefined)?.text ?? '');
}

/** All text Slack parses as mrkdwn (the fallback and every mrkdwn object), joined. */
function mrkdwn(post: ResponsePost): string {
  const texts = [String(post.body.text ?? '')];
  for (const block of blocksOf(post)) {
    const text = block.text as Json | undefined;
    if (text?.type === 'mrkdwn') texts.push(String(text.text));
    for (const field of (block.fields as Json[] | undefined) ?? []) texts.push(String(field.text));
    for (const element of (block.elements as Json[] | undefined) ?? [])
      if (element.type === 'mrkdwn') texts.push(String(element.text));
  }
  return texts.join('\n');
}

describe.each(['socket', 'http'] as Mode[])('Matchday on Slack (%s mode)', (mode) => {
  let rig: Rig;
  let team: string;
  let spaced: string;
  let player: string;
  let tournament: string;

  /** What the runtime answers for the same text, rendered: the blocks Slack must have received. */
  async function expected(
    text: string,
    user: { id: string; name: string; isAdmin: boolean },
  ): Promise<Reply> {
    const parsed = parseCommandText(text, commands);
    const call: CommandCall = {
      platform: 'slack',
      tenantKey: 'T0MATCHDAY',
      user,
      channel: { id: CHANNELS.general.id, name: CHANNELS.general.name },
      command: parsed.command,
      ...(parsed.subcommand ? { subcommand: parsed.subcommand } : {}),
      args: parsed.args,
    };
    return rig.app.runtime.execute(call);
  }

  beforeAll(async () => {
    rig = await startRig(mode);
    const teams = rig.app.runtime.autocomplete('team', 'otters');
    spaced = String(
      teams.find((t: { name: string }) => t.name.includes(' '))?.name.replace(/ \([A-Z]+\)$/, ''),
    );
    team = spaced;
    tournament = String(rig.app.runtime.autocomplete('tournament', 'cup')[0]?.name.replace(/ \(.*\)$/, ''));
    expect(spaced).toContain(' ');
    // Players load on first use: loaded here, then one is picked by the label autocomplete offers.
    await rig.app.names.ensurePlayers();
    player = String(rig.app.runtime.autocomplete('player', 'a')[0]?.name);
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('answers /matchday and /matchday help with every command, to the user alone', async () => {
    for (const text of ['', 'help']) {
      const post = await rig.command(text, { user: USERS.admin.id });
      expect(post.status).toBe(200);
      expect(post.body.response_type).toBe('ephemeral');
      const body = mrkdwn(post);
      for (const name of COMMAND_NAMES) expect(body).toContain(`/matchday ${name}`);
      expect(body).toContain('name:value pairs');
      expect(blockKitProblems(post.body)).toEqual([]);
    }
    // A member is not shown the admin commands.
    const member = mrkdwn(await rig.command('help', { user: USERS.member.id }));
    expect(member).toContain('/matchday series');
    for (const command of commands.filter((c) => c.adminOnly))
      expect(member).not.toContain(`/matchday ${command.name}`);
  });

  it('explains each command with /matchday help <command>, from its declaration', async () => {
    for (const command of commands) {
      const post = await rig.command(`help ${command.name}`, { user: USERS.admin.id });
      expect(header(post)).toBe(`Help: ${command.name}`);
      const body = mrkdwn(post);
      expect(body).toContain(command.description.replaceAll('&', '&amp;').replaceAll("'", "'"));
      for (const option of Object.keys(command.options ?? {})) expect(body).toContain(`\`${option}\``);
      for (const sub of Object.keys(command.subcommands ?? {}))
        expect(body).toContain(`/matchday ${command.name} ${sub}`);
    }
    const unknown = await rig.command('help standngs');
    expect(unknown.body.response_type).toBe('ephemeral');
    expect(mrkdwn(unknown)).toContain('/matchday help standings');
  });

  it('answers every command with the blocks its reply renders to, in the channel unless ephemeral', async () => {
    const calls: [string, { id: string; name: string; isAdmin: boolean }][] = [
      ['series', { ...USERS.member, isAdmin: false }],
      ['series recent limit:3', { ...USERS.member, isAdmin: false }],
      ['live', { ...USERS.member, isAdmin: false }],
      ['schedule', { ...USERS.member, isAdmin: false }],
      [`team "${team}"`, { ...USERS.member, isAdmin: false }],
      [`player "${player}"`, { ...USERS.member, isAdmin: false }],
      [`standings "${tournament}"`, { ...USERS.member, isAdmin: false }],
      ['casters', { ...USERS.member, isAdmin: false }],
      [`tournament "${tournament}"`, { ...USERS.member, isAdmin: false }],
      ['me list', { ...USERS.member, isAdmin: false }],
      ['settings show', { id: USERS.admin.id, name: USERS.admin.name, isAdmin: true }],
    ];
    const covered = new Set<string>();
    for (const [text, user] of calls) {
      const post = await rig.command(text, { user: user.id });
      const want = renderReply(await expected(text, user));
      expect(post.body.blocks, text).toEqual(want.blocks);
      expect(post.body.text, text).toBe(want.text);
      expect(blockKitProblems(post.body), text).toEqual([]);
      // A real answer, not an error card.
      expect(header(post), text).not.toMatch(/^(Sorry|Not quite|Admins only|Unknown command|Easy there)$/);
      const command = commands.find((c) => c.name === text.split(' ')[0])!;
      expect(post.body.response_type, text).toBe(command.ephemeral ? 'ephemeral' : 'in_channel');
      covered.add(command.name);
    }
    // follow changes settings, so it is checked by its effect rather than against a second run.
    const follow = await rig.command(`follow team "${team}"`, { user: USERS.admin.id });
    expect(blockKitProblems(follow.body)).toEqual([]);
    expect(mrkdwn(follow) + header(follow)).toContain(team);
    expect((await rig.app.tenants.get(TENANT)).follows.length).toBe(1);
    covered.add('follow');
    // status counts the requests of the last minute, which the second run changes: checked by what it says.
    const status = await rig.command('status', { user: USERS.admin.id });
    expect(blockKitProblems(status.body)).toEqual([]);
    expect(status.body.response_type).toBe('ephemeral');
    expect(header(status)).toMatch(/^Matchday status/);
    expect(mrkdwn(status)).toContain('Esports data service');
    const refused = await rig.command('status', { user: USERS.member.id });
    expect(mrkdwn(refused) + header(refused)).not.toContain('Esports data service');
    covered.add('status');
    covered.add('help');
    expect([...covered].sort()).toEqual([...COMMAND_NAMES].sort());
  });

  it('takes arguments as name:value pairs, in declaration order, and in quotes of any kind', async () => {
    const pairs = await rig.command(`team team:"${team}" count:2`);
    const positional = await rig.command(`team "${team}" 2`);
    const typographic = await rig.command(`team \u201c${team}\u201d count:2`);
    expect(header(pairs)).toContain(team.split(' ')[0]);
    expect(positional.body.blocks).toEqual(pairs.body.blocks);
    expect(typographic.body.blocks).toEqual(pairs.body.blocks);
    const live = await rig.command('series live');
    const livePair = await rig.command('series when:live');
    expect(live.body.blocks).toEqual(livePair.body.blocks);
  });

  it.each([
    ['serise', /no command "serise"/, '/matchday series'],
    [`team "${'Frozen'}`, /never closed/, 'team:"Team Spirit"'],
    ['series colour:red', /has no option "colour"/, 'when:'],
    ['series when:sometimes', /must be one of upcoming, live, recent/, ''],
    ['team', /needs team:/, '/matchday team team:'],
    ['series live cs2 1 x y z q', /can be read more than one way/, 'team:"x y z q"'],
    ['standings tournament:"No Such Cup 1999"', /.+/, ''],
  ])('answers "%s" with what would be right, to the user alone', async (text, pattern, hint) => {
    const post = await rig.command(text);
    expect(post.body.response_type).toBe('ephemeral');
    const body = mrkdwn(post);
    expect(body).toMatch(pattern);
    if (hint) expect(body).toContain(hint.replaceAll('"', '"'));
    // Never a bare Discord-style `/series` hint on Slack.
    expect(body).not.toMatch(/(^|[\s(`])\/(series|team|standings|help|settings)\b/m);
  });

  it('refuses a demoted admin at once: /follow asks users.info on every call, never a cached status', async () => {
    const others = rig.app.runtime
      .autocomplete('team', 'a')
      .map((t) => String(t.name).replace(/ \([A-Z0-9]+\)$/, ''));
    const [first, second] = others.filter((name) => name !== team);
    const before = rig.fake.callsOf('users.info').length;
    const followed = await rig.command(`follow team "${first}"`, { user: USERS.admin.id });
    expect(mrkdwn(followed) + header(followed)).toContain('Now following');
    const admin = rig.fake.users.get(USERS.admin.id)!;
    admin.isAdmin = false;
    try {
      const refused = await rig.command(`follow team "${second}"`, { user: USERS.admin.id });
      expect(mrkdwn(refused)).toMatch(/Only admins of this workspace can change the followed teams/);
      expect(rig.fake.callsOf('users.info').length - before).toBe(2);
      expect((await rig.app.tenants.get(TENANT)).follows).not.toContain(
        rig.app.runtime.autocomplete('team', String(second))[0]?.value,
      );
    } finally {
      admin.isAdmin = true;
    }
  });

  it('lets workspace admins and owners use admin commands, checked with users.info', async () => {
    const before = rig.fake.callsOf('users.info').length;
    const refused = await rig.command('settings show', { user: USERS.member.id });
    expect(refused.body.response_type).toBe('ephemeral');
    expect(mrkdwn(refused)).toMatch(/for workspace admins and owners only/);
    const asked = rig.fake.callsOf('users.info').slice(before);
    expect(asked.map((c) => c.params.user)).toEqual([USERS.member.id]);

    const admin = await rig.command('settings show', { user: USERS.admin.id });
    const owner = await rig.command('settings show', { user: USERS.owner.id });
    for (const post of [admin, owner]) {
      expect(post.body.response_type).toBe('ephemeral');
      expect(mrkdwn(post)).not.toMatch(/admins only/);
    }
    expect(header(admin)).toBe(header(owner));

    // Other commands reuse a status looked up within the last 5 seconds (the refusal above looked it up).
    const count = rig.fake.callsOf('users.info').length;
    await rig.command('live', { user: USERS.member.id });
    await rig.command('live', { user: USERS.member.id });
    expect(rig.fake.callsOf('users.info').length).toBe(count);

    // When Slack cannot say, the command is refused, not guessed.
    rig.fake.fail('users.info', { error: 'internal_error' });
    const unsure = await rig.command('settings show', { user: USERS.admin.id });
    expect(mrkdwn(unsure)).toMatch(/Could not check with Slack whether you are a workspace admin/);
  });

  it('checks with conversations.info that Matchday can post in a channel before subscribing it', async () => {
    const closed = await rig.command(
      `settings channel-add channel:<#${CHANNELS.closed.id}|${CHANNELS.closed.name}>`,
      {
        user: USERS.admin.id,
      },
    );
    expect(mrkdwn(closed)).toContain('/invite @Matchday');
    const unknown = await rig.command('settings channel-add channel:<#C0NOWHERE|gone>', {
      user: USERS.admin.id,
    });
    expect(mrkdwn(unknown)).toContain('access to the channel');
    let settings = await rig.app.tenants.get(TENANT);
    expect(settings.channels.map((c) => c.id)).not.toContain(CHANNELS.closed.id);

    const ok = await rig.command(
      `settings channel-add channel:<#${CHANNELS.remind.id}|${CHANNELS.remind.name}> kinds:reminders`,
      {
        user: USERS.admin.id,
      },
    );
    expect(blockKitProblems(ok.body)).toEqual([]);
    settings = await rig.app.tenants.get(TENANT);
    expect(settings.channels.find((c) => c.id === CHANNELS.remind.id)).toMatchObject({
      name: CHANNELS.remind.name,
      kinds: ['reminders'],
    });
    expect(rig.fake.callsOf('conversations.info').map((c) => c.params.channel)).toEqual(
      expect.arrayContaining([CHANNELS.closed.id, 'C0NOWHERE', CHANNELS.remind.id]),
    );
    await rig.command(`settings channel-remove channel:<#${CHANNELS.remind.id}|${CHANNELS.remind.name}>`, {
      user: USERS.admin.id,
    });
  });

  it('hides results behind a Reveal button that answers only the clicker', async () => {
    await rig.app.tenants.save(TENANT, { ...(await rig.app.tenants.get(TENANT)), spoilers: 'spoiler' });
    const post = await rig.command('series recent limit:5');
    const withButton = blocksOf(post).find((b) =>
      String((b.accessory as Json | undefined)?.action_id ?? '').startsWith(REVEAL_ACTION),
    );
    expect(withButton, 'a recent series with a hidden result').toBeDefined();
    expect(JSON.stringify((withButton!.text as Json).text)).toContain(SPOILER_MASK);
    const button = withButton!.accessory as Json;
    const { payload, responseId } = rig.fake.blockActionPayload({
      userId: USERS.member.id,
      channelId: CHANNELS.general.id,
      action: {
        type: 'button',
        action_id: button.action_id,
        block_id: 'b1',
        value: button.value,
        text: button.text,
      },
    });
    await rig.deliver('interactive', payload);
    const reveal = await rig.fake.waitFor(() => rig.fake.responsesTo(responseId)[0], 5000, 'the reveal');
    expect(reveal.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(mrkdwn(reveal)).not.toContain(SPOILER_MASK);
    expect(mrkdwn(reveal)).toBe(`${button.value}\n${button.value}`);
    await rig.app.tenants.save(TENANT, { ...(await rig.app.tenants.get(TENANT)), spoilers: 'show' });
  });

  it('lets no name typed or stored ping anyone', async () => {
    // Slack sends the command text with &, <, > as entities.
    const post = await rig.command('team team:"&lt;!channel&gt; @here &lt;@U0ADMIN&gt;"');
    const text = mrkdwn(post);
    expect(text).toContain('&lt;!channel&gt;');
    expect(text).not.toMatch(/<!channel>|<!here>|<@U0ADMIN>|(?<!\u2060)@here/);
  });

  it('purges the workspace when the app is uninstalled or its bot token revoked', async () => {
    await rig.app.tenants.save(TENANT, { ...defaultSettings(), tiers: [1] });
    expect(await rig.app.tenants.list()).toContain(TENANT);

    // Revoking only user tokens leaves the workspace alone.
    await rig.deliver(
      'events_api',
      rig.fake.eventPayload({ type: 'tokens_revoked', tokens: { oauth: ['U0ADMIN'] } }),
    );
    await rig.command('help');
    expect(await rig.app.tenants.list()).toContain(TENANT);

    await rig.deliver(
      'events_api',
      rig.fake.eventPayload({ type: 'tokens_revoked', tokens: { bot: ['U0BOT'] } }),
    );
    await rig.fake.waitFor(async () => undefined, 0).catch(() => undefined);
    await waitUntil(async () => !(await rig.app.tenants.list()).includes(TENANT));

    await rig.app.tenants.save(TENANT, { ...defaultSettings(), tiers: [1] });
    await rig.deliver('events_api', rig.fake.eventPayload({ type: 'app_uninstalled' }));
    await waitUntil(async () => !(await rig.app.tenants.list()).includes(TENANT));
  });

  if (mode === 'http') {
    it.each([
      [
        'a bad signature',
        { signature: 'v0=0000000000000000000000000000000000000000000000000000000000000000' },
      ],
      ['a signature made with another secret', { secret: 'not-the-signing-secret' }],
      ['a timestamp six minutes old', { timestamp: Math.floor(Date.now() / 1000) - 360 }],
      ['a timestamp six minutes ahead', { timestamp: Math.floor(Date.now() / 1000) + 360 }],
      ['no signature header', { omit: ['x-slack-signature' as const] }],
      ['no timestamp header', { omit: ['x-slack-request-timestamp' as const] }],
    ])('refuses a request with %s with 401, and no handler runs', async (_what, options) => {
      const usersInfo = rig.fake.callsOf('users.info').length;
      const { payload, responseId } = rig.fake.slashCommandPayload({
        text: 'settings show',
        userId: USERS.admin.id,
        channelId: CHANNELS.general.id,
      });
      const body = formBody(payload);
      const refused = await signedPost(
        rig.eventsUrl!,
        SIGNING_SECRET,
        body,
        'application/x-www-form-urlencoded',
        options,
      );
      expect(refused.status).toBe(401);

      // The control: the same request, signed right, is answered, so the checks below can fail.
      const { payload: good, responseId: goodId } = rig.fake.slashCommandPayload({
        text: 'settings show',
        userId: USERS.admin.id,
        channelId: CHANNELS.general.id,
      });
      const accepted = await signedPost(
        rig.eventsUrl!,
        SIGNING_SECRET,
        formBody(good),
        'application/x-www-form-urlencoded',
      );
      expect(accepted.status).toBe(200);
      await rig.fake.waitFor(() => rig.fake.responsesTo(goodId)[0], 5000, 'the control answer');

      expect(rig.fake.responsesTo(responseId)).toEqual([]);
      // The handler would have asked users.info for the admin command: only the control did.
      expect(rig.fake.callsOf('users.info').length).toBe(usersInfo + 1);
    });

    it('refuses a signed body that was changed on the way', async () => {
      const { payload, responseId } = rig.fake.slashCommandPayload({
        text: 'help',
        userId: USERS.member.id,
        channelId: CHANNELS.general.id,
      });
      const timestamp = Math.floor(Date.now() / 1000);
      const { slackSignature } = await import('../../fakes/slack/signed-post.ts');
      const signature = slackSignature(SIGNING_SECRET, timestamp, formBody(payload));
      const tampered = formBody({ ...payload, user_id: USERS.admin.id });
      const answer = await signedPost(
        rig.eventsUrl!,
        SIGNING_SECRET,
        tampered,
        'application/x-www-form-urlencoded',
        { timestamp, signature },
      );
      expect(answer.status).toBe(401);
      await rig.command('help');
      expect(rig.fake.responsesTo(responseId)).toEqual([]);
    });
  }

  it('keeps tokens, the signing secret and response_urls out of the logs', async () => {
    await rig.command('live');
    const logs = rig.logs.text();
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).toContain('Matchday is running on Slack');
    for (const secret of [rig.fake.botToken, rig.fake.appToken, SIGNING_SECRET])
      expect(logs).not.toContain(secret);
    for (const response of rig.fake.responses) expect(logs).not.toContain(response.id);
  });
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
