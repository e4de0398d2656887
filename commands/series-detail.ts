/**
 * `/series series:<id or name>` (or `/series <id>`): one series in detail, with its match preview
 * (`src/bot/preview.ts`): when and where it is played, the score or the result under the spoiler
 * policy, both teams' recent form, their head-to-head record, the stage and what is at stake, and
 * the streams with their languages. Not a command of its own: `/series` calls it.
 * Everything through the read model (src/reads/reads.ts): the series, its casters, form,
 * head-to-head, the substage and its series.
 */
import type { CommandContext } from '../src/bot/command.ts';
import { seriesCard } from '../src/bot/format.ts';
import { broadcastLines } from '../src/bot/format-streams.ts';
import { previewLines, readPreview } from '../src/bot/preview.ts';
import type { Reply } from '../src/bot/reply.ts';
import { seriesArg } from './shared.ts';

/** Broadcasts listed in the detail view. */
const MAX_BROADCASTS = 5;

export async function seriesDetail(ctx: CommandContext<unknown>, text: string): Promise<Reply> {
  const { data, names, tenant } = ctx;
  const series = await seriesArg(ctx, text);
  const [casters] = await Promise.all([
    ctx.reads.casters(series.casters.map((c) => c.caster.id)),
    names.ensureSeriesLabels(data, [series]),
    names.ensureTournaments(data, [series.tournament.id]),
    names.ensureSubstages(data, [series.substage.id]),
  ]);
  const policy = tenant.settings.spoilers;
  // Under `hide` form and head-to-head are not shown, so they are not read either.
  const preview = await readPreview(
    series,
    ctx.reads,
    names,
    (list) => names.ensureSeriesLabels(data, list),
    { results: policy !== 'hide' },
  );
  const card = seriesCard(series, names, {
    spoilers: policy,
    t: ctx.t,
    casters,
    now: ctx.now,
    footer: ctx.t('commands.shared.series', { id: series.id }),
  });
  card.description = [
    ...(card.description ?? []),
    ...previewLines(preview, policy, { compact: false, t: ctx.t }),
    ...broadcastLines(series, (id) => names.languageName(id), MAX_BROADCASTS, ctx.t),
  ];
  return { cards: [card] };
}
