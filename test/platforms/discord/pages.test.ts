/**
 * Paging on Discord: a busy day's `/schedule` carries previous/next buttons
 * (message components); a click, delivered by the loopback fake as a type-3 interaction to the
 * real discord.js client, updates the same message to the other page. A page that no longer
 * exists is said to the clicker alone and the message stays as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../../commands/index.ts';
import type { Reply } from '../../../src/bot/reply.ts';
import { renderReply } from '../../../src/platforms/discord/render.ts';
import type { FakeMessage } from '../../fakes/discord.ts';
import { CHANNELS, GUILD, type Rig, startRig } from './rig.ts';

const AT = new Date('2026-03-18T15:20:00.000Z');
const FAN = { id: '700000000000000001', username: 'fan' };

let rig: Rig;
beforeAll(async () => {
  rig = await startRig({ at: AT, commands });
}, 60_000);
afterAll(async () => {
  await rig?.close();
});

/** The page the runtime answers for `page:`, as the one message Discord shows. */
async function pageMessage(page: number) {
  const reply: Reply = await rig.app.runtime.execute({
    platform: 'discord',
    tenantKey: GUILD,
    user: { id: FAN.id, name: FAN.username, isAdmin: false },
    channel: { id: CHANNELS.general },
    command: 'schedule',
    args: { page },
  });
  return { reply, message: renderReply(reply, { single: true })[0]! };
}

function buttonsOf(message: Pick<FakeMessage, 'components'>): { label: string; custom_id: string }[] {
  return message.components.flatMap((row: { components: { label: string; custom_id?: string }[] }) =>
    row.components.filter((b) => b.custom_id !== undefined),
  ) as { label: string; custom_id: string }[];
}

describe('paging /schedule on Discord', () => {
  it('shows the page of what is on now with buttons to its neighbours, and a click moves the same message', async () => {
    const answer = await rig.fake.answer({ command: 'schedule', user: FAN });
    const message = answer.message!;
    const { reply } = await pageMessage(1);
    const pages = reply.pager!.pages;
    expect(pages).toBeGreaterThan(2);
    const now = (
      await rig.app.runtime.execute({
        platform: 'discord',
        tenantKey: GUILD,
        user: { id: FAN.id, name: FAN.username, isAdmin: false },
        channel: { id: CHANNELS.general },
        command: 'schedule',
        args: {},
      })
    ).pager!.page;
    expect(now).toBeGreaterThan(1);
    expect(now).toBeLessThan(pages);
    const buttons = buttonsOf(message);
    expect(buttons.map((b) => b.label)).toEqual([`◀ Page ${now - 1}`, `Page ${now + 1} ▶`]);
    expect(buttons[1]!.custom_id).toMatch(new RegExp(`^md_page\\|/schedule day:2026-03-18 page:${now + 1}$`));

    // Next: the same message now shows the next page, exactly as the runtime renders it.
    const next = await rig.fake.click({ message, customId: buttons[1]!.custom_id, user: FAN });
    expect(next.callbackTypes).toEqual([6]);
    expect(next.followups).toHaveLength(0);
    expect(next.message!.id).toBe(message.id);
    const want = await pageMessage(now + 1);
    expect(next.message!.embeds).toEqual(want.message.embeds);
    expect(JSON.stringify(next.message!.embeds)).toContain(`Page ${now + 1} of ${pages}`);

    // Previous from there: back to the page it started on.
    const back = buttonsOf(next.message!).find((b) => b.label.startsWith('◀'))!;
    const previous = await rig.fake.click({ message: next.message!, customId: back.custom_id, user: FAN });
    expect(previous.message!.embeds).toEqual((await pageMessage(now)).message.embeds);
    expect(
      rig.fake.messages(CHANNELS.general, { includeInteractions: true }).filter((m) => m.id === message.id),
    ).toHaveLength(1);
  });

  it('the last page has no next button and the first no previous one', async () => {
    const { message: first, reply } = await pageMessage(1);
    expect(buttonsOf(first).map((b) => b.label)).toEqual(['Page 2 ▶']);
    const { message: last } = await pageMessage(reply.pager!.pages);
    expect(buttonsOf(last).map((b) => b.label)).toEqual([`◀ Page ${reply.pager!.pages - 1}`]);
  });

  it('answers the clicker alone when the page no longer exists, and leaves the message as it was', async () => {
    const answer = await rig.fake.answer({ command: 'schedule', options: { page: 1 }, user: FAN });
    const message = answer.message!;
    const before = structuredClone(message.embeds);
    const next = buttonsOf(message).find((b) => b.label.endsWith('▶'))!;
    // The admins narrow the server to one game and tier: the day now fits on one page.
    const tenant = `discord:${GUILD}`;
    const settings = await rig.app.tenants.get(tenant);
    await rig.app.tenants.update(tenant, (s) => ({
      ...s,
      games: [Number(rig.app.names.search('game', '', 1)[0]!.value)],
      tiers: [1],
    }));
    try {
      const result = await rig.fake.click({ message, customId: next.custom_id, user: FAN });
      expect(result.followups).toHaveLength(1);
      expect(result.followups[0]!.flags & 64).toBe(64);
      expect(JSON.stringify(result.followups[0]!.embeds)).toContain('fits on one page');
      expect(message.embeds).toEqual(before);
    } finally {
      await rig.app.tenants.update(tenant, () => settings);
    }
  });
});
