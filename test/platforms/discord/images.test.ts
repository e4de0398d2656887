/**
 * Standings pictures on Discord: the PNG goes up through discord.js as a
 * multipart attachment of the interaction's answer, and the embed shows it (`attachment://`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Rig, startRig } from './rig.ts';

let rig: Rig;
beforeAll(async () => {
  rig = await startRig({ at: new Date('2026-03-18T15:20:00.000Z') });
}, 60_000);
afterAll(async () => {
  await rig?.close();
});

describe('standings pictures on Discord', () => {
  it('attaches the table PNG to the answer and shows it in the embed', async () => {
    const world = rig.app.service!.world;
    const now = world.now();
    const tournament = world
      .window(now)
      .tournaments.find(
        (t) => t.start <= now && t.end >= now && t.stages.some((s) => s.substages.some((x) => x.type === 1)),
      );
    expect(tournament).toBeDefined();
    const result = await rig.fake.answer({
      command: 'standings',
      options: { tournament: tournament!.title },
    });
    const message = result.message!;
    expect(message.attachments).toHaveLength(1);
    const [attachment] = message.attachments;
    expect(attachment!.filename).toMatch(/^standings-\d+\.png$/);
    expect(attachment!.size).toBeGreaterThan(1000);
    expect(message.embeds[0].image.url).toBe(`attachment://${attachment!.filename}`);
    // It arrived as a multipart upload (a file part), not as text.
    const uploads = rig.fake.requests.filter((r) => r.files.length > 0);
    expect(
      uploads.some((r) =>
        r.files.some((f) => f.name === attachment!.filename && f.size === attachment!.size),
      ),
    ).toBe(true);
  });
});
