/**
 * What a person is offered to pick from as they type: a choice (the name shown and the value it
 * stands for), and the sources that offer choices by name. An option of a command declares its fixed
 * choices or its source (src/bot/command.ts); the name index (src/bot/names.ts) and the time zones
 * (src/bot/time-zones.ts) answer a source's search with choices.
 */

/** Names the autocomplete index resolves: the same index powers fuzzy name resolution in commands. */
export type AutocompleteSource =
  | 'team'
  | 'organisation'
  | 'tournament'
  | 'game'
  | 'substage'
  | 'series'
  | 'player'
  | 'timezone';

export interface Choice<V extends string | number = string | number> {
  name: string;
  value: V;
}
