/**
 * Paging on Slack: a busy day's `/matchday schedule` carries previous/next
 * buttons (Block Kit actions); a click, delivered by the loopback fake as a `block_actions`
 * interaction to the real Bolt app, replaces the message with the other page through the
 * response_url. A page that no longer exists is said to the clicker alone (ephemeral, the message
 * kept).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../../../src/bot/reply.ts';
import { PAGE_ACTION_ID, renderReply } from '../../../src/platforms/slack/render.ts';
import type { ResponsePost } from '../../fakes/slack.ts';
import { CHANNELS, type Rig, startRig, USERS } from './harness.ts';

type Json = Record<string, unknown>;

let rig: Rig;
beforeAll(async () => {
  rig = await startRig('socket');
}, 60_000);
afterAll(async () => {
  await rig?.close();
});

const TENANT = 'slack:T0MATCHDAY';

/** The page the runtime answers, as Slack blocks. */
async function pageBlocks(args: Record<string, unknown>): Promise<{ reply: Reply; blocks: unknown[] }> {
  const reply = await rig.app.runtime.execute({
    platform: 'slack',
    tenantKey: 'T0MATCHDAY',
    user: { id: USERS.member.id, name: USERS.member.name, isAdmin: false },
    channel: { id: CHANNELS.general.id, name: CHANNELS.general.name },
    command: 'schedule',
    args,
  });
  return { reply, blocks: renderReply(reply).blocks };
}

function pageButtons(post: ResponsePost): Json[] {
  const blocks = (post.body.blocks as Json[] | undefined) ?? [];
  return blocks
    .filter((b) => b.type === 'actions')
    .flatMap((b) => b.elements as Json[])
    .filter((e) => String(e.action_id).startsWith(PAGE_ACTION_ID));
}

/** Clicks a button of a posted message as `userId` and resolves with the answer to the click. */
async function click(button: Json): Promise<ResponsePost> {
  const { payload, responseId } = rig.fake.blockActionPayload({
    userId: USERS.member.id,
    channelId: CHANNELS.general.id,
    action: {
      type: 'button',
      action_id: button.action_id,
      block_id: 'pages',
      value: button.value,
      text: button.text,
    },
  });
  await rig.deliver('interactive', payload);
  return rig.fake.waitFor(() => rig.fake.responsesTo(responseId)[0], 8000, 'the answer to the click');
}

describe('paging /matchday schedule on Slack', () => {
  it('offers the neighbours of the page of what is on now, and a click replaces the message with the next page', async () => {
    const post = await rig.command('schedule');
    const now = (await pageBlocks({})).reply.pager!;
    expect(now.pages).toBeGreaterThan(2);
    const buttons = pageButtons(post);
    expect(buttons.map((b) => (b.text as Json).text)).toEqual([
      `◀ Page ${now.page - 1}`,
      `Page ${now.page + 1} ▶`,
    ]);
    expect(buttons.map((b) => b.action_id)).toEqual([`${PAGE_ACTION_ID}_previous`, `${PAGE_ACTION_ID}_next`]);
    expect(buttons[1]!.value).toBe(`md_page|/schedule day:2026-03-18 page:${now.page + 1}`);

    const next = await click(buttons[1]!);
    expect(next.body.replace_original).toBe(true);
    expect(next.body.response_type).toBeUndefined();
    expect(next.body.blocks).toEqual((await pageBlocks({ page: now.page + 1 })).blocks);
    // The hint in the message speaks Slack's command form.
    expect(JSON.stringify(next.body.blocks)).toContain(`/matchday schedule day:2026-03-18 page:${now.page}`);

    const back = pageButtons(next).find((b) => b.action_id === `${PAGE_ACTION_ID}_previous`)!;
    const previous = await click(back);
    expect(previous.body.blocks).toEqual((await pageBlocks({ page: now.page })).blocks);
  });

  it('answers the clicker alone when the page no longer exists', async () => {
    const post = await rig.command('schedule page:1');
    const next = pageButtons(post).find((b) => b.action_id === `${PAGE_ACTION_ID}_next`)!;
    expect(pageButtons(post).some((b) => b.action_id === `${PAGE_ACTION_ID}_previous`)).toBe(false);
    const settings = await rig.app.tenants.get(TENANT);
    const game = Number(rig.app.names.search('game', '', 1)[0]!.value);
    await rig.app.tenants.update(TENANT, (s) => ({ ...s, games: [game], tiers: [1] }));
    try {
      const answer = await click(next);
      expect(answer.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
      expect(JSON.stringify(answer.body.blocks)).toContain('fits on one page');
    } finally {
      await rig.app.tenants.update(TENANT, () => settings);
    }
  });
});
