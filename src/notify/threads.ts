/**
 * Threads for a match (`/settings threads`; docs/discord.md, "Threads"): in a channel that wants them, the
 * live card keeps being edited in place, and each finished game of the series is also posted as a
 * reply in a thread under the card (a Discord thread started on the card, Slack replies with
 * `thread_ts`), so the channel keeps the running story. One reply per game, each its own ledger
 * key (`live:<series>:game<n>:<platform>:<tenant>:<channel>`): posted once, also across a restart.
 * The score follows the channel's spoiler policy (shown, behind a spoiler, or withheld).
 */
import {
  guardResult,
  isLobby,
  type MapNames,
  orderedParticipants,
  type SeriesLabels,
  teamName,
} from '../bot/format.ts';
import type { Reply, Text } from '../bot/reply.ts';
import type { SpoilerPolicy } from '../bot/settings.ts';
import type { Translate } from '../i18n/i18n.ts';
import type { Match, Series } from '../protocol/types.ts';

/** The thread's name: "Team A vs Team B · live" (Discord: at most 100 characters). */
export function threadName(series: Series, labels: SeriesLabels, t: Translate): string {
  const [home, away] = orderedParticipants(series);
  const side = (p: typeof home) => (p ? teamName(labels, p.roster.id) : t('cards.series.tbd'));
  const name = isLobby(series) ? series.title : `${side(home)} vs ${side(away)}`;
  return `${name} · ${t('cards.threads.live')}`.slice(0, 100);
}

/** The replies due for a series' finished games, in order: `detail` names each one's ledger key. */
export function gameReplies(
  series: Series,
  matches: readonly Match[],
  labels: SeriesLabels,
  spoilers: SpoilerPolicy,
  mapName: MapNames,
  t: Translate,
): { detail: string; reply: Reply }[] {
  if (isLobby(series)) return [];
  return [...matches]
    .filter((m) => m.deleted_at === null && (m.lifecycle === 'over' || m.lifecycle === 'over-forfeited'))
    .sort((a, b) => a.order - b.order)
    .flatMap((m) => {
      const [home, away] = orderedParticipants(m);
      if (!home || !away) return [];
      const winner = [home, away].find((p) => p.winner);
      const fallback = t('cards.threads.map', { order: m.order });
      const map = m.map ? (mapName(m.map.id) ?? fallback) : fallback;
      const score: Text = [
        `${teamName(labels, home.roster.id)} ${home.score}–${away.score} ${teamName(labels, away.roster.id)}`,
        ...(winner ? [`: ${t('cards.threads.takeIt', { team: teamName(labels, winner.roster.id) })}`] : []),
      ];
      const over = t('cards.threads.gameOver', { order: m.order, map });
      const content: Text = [`${over} `, ...guardResult(score, spoilers, t)];
      return [{ detail: `game${m.order}`, reply: { content, cards: [] } }];
    });
}
