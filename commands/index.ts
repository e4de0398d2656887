/**
 * Every command, listed explicitly: the compiler checks the list, nothing scans the directory.
 * The order is the order of `/help`.
 */
import type { AnyCommand } from '../src/bot/command.ts';
import casters from './casters.ts';
import follow from './follow.ts';
import help from './help.ts';
import live from './live.ts';
import me from './me.ts';
import player from './player.ts';
import schedule from './schedule.ts';
import series from './series.ts';
import settings from './settings.ts';
import standings from './standings.ts';
import status from './status.ts';
import team from './team.ts';
import tournament from './tournament.ts';

export const commands: AnyCommand[] = [
  series,
  live,
  schedule,
  team,
  player,
  standings,
  casters,
  tournament,
  follow,
  me,
  settings,
  status,
  help,
];
