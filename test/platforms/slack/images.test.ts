/**
 * Standings pictures on Slack: after the answer, Bolt's WebClient uploads the PNG
 * with the files API (files.getUploadURLExternal, the bytes to the upload URL, files.completeUploadExternal)
 * and the fake holds the file in the channel. Where Matchday was not invited the upload is refused and
 * the text answer stands.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, type Rig, startRig } from './harness.ts';

let rig: Rig;
beforeAll(async () => {
  rig = await startRig('socket');
}, 60_000);
afterAll(async () => {
  await rig?.close();
});

function groupTournament(): string {
  const world = rig.app.service!.world;
  const now = world.now();
  const found = world
    .window(now)
    .tournaments.find(
      (t) => t.start <= now && t.end >= now && t.stages.some((s) => s.substages.some((x) => x.type === 1)),
    );
  if (!found) throw new Error('no running tournament with a group');
  return found.title;
}

async function waitForUploads(count: number): Promise<void> {
  for (let i = 0; i < 300 && rig.fake.uploads.filter((u) => u.channel).length < count; i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('standings pictures on Slack', () => {
  it('uploads the table as a PNG file to the channel after the answer', async () => {
    const post = await rig.command(`standings "${groupTournament()}"`, { channel: CHANNELS.general.id });
    expect(post.body.response_type).toBe('in_channel');
    await waitForUploads(1);
    const [upload] = rig.fake.uploads;
    expect(upload?.channel).toBe(CHANNELS.general.id);
    expect(upload?.filename).toMatch(/^standings-\d+\.png$/);
    // The bytes arrived whole: a PNG of the announced length.
    expect(upload?.data?.subarray(1, 4).toString()).toBe('PNG');
    expect(upload?.data?.length).toBe(upload?.length);
    const methods = rig.fake.calls.map((c) => c.method);
    expect(methods).toContain('files.getUploadURLExternal');
    expect(methods).toContain('files.completeUploadExternal');
  });

  it('answers in text where it may not upload (not invited), and uploads nothing for an answer only the user sees', async () => {
    const before = rig.fake.uploads.filter((u) => u.channel).length;
    const post = await rig.command(`standings "${groupTournament()}"`, { channel: CHANNELS.closed.id });
    expect(post.body.response_type).toBe('in_channel');
    const help = await rig.command('help standings', { channel: CHANNELS.general.id });
    expect(help.body.response_type).toBe('ephemeral');
    await waitForUploads(before + 1);
    expect(rig.fake.uploads.filter((u) => u.channel).length).toBe(before);
    expect(
      rig.fake.calls.some(
        (c) => c.method === 'files.completeUploadExternal' && c.answer.error === 'not_in_channel',
      ),
    ).toBe(true);
  });
});
