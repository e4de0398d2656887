/**
 * A view of the client for one caller (a command run, a notifier tick): the caller's defaults
 * (priority, deadline) and its own answer counts (`servedStale`), over the cache, limiter and
 * connections every view of one client shares.
 *
 * The runtime makes a view for every command, and most commands answer from the feed or the name
 * index without a request. So a view builds its resources (some 150 small functions) on first use,
 * and the getters below live on the class, not on each view: a view never asked costs one object.
 */
import { InvalidQueryError } from './errors.ts';
import type { AnswerKind, Pipeline } from './pipeline.ts';
import { buildResources, type Resources } from './resources.ts';
import type { CallerDefaults, CallOptions, ClientStats, Priority, ScopedEsportsClient } from './types.ts';
import type { Embedded } from './v2/embedded.ts';
import { buildV2Resources } from './v2/resources.ts';

/** What every view of one client shares. */
export interface Shared {
  v2: boolean;
  deadlines: { interactiveMs: number; backgroundMs: number };
  pipeline: Pipeline;
  /** Records embedded in v2 answers (rosters, teams, players, casters, maps), shared by every view. */
  embedded: Embedded;
  stats: () => ClientStats;
  close: () => Promise<void>;
}

export class ClientView implements ScopedEsportsClient {
  readonly #shared: Shared;
  readonly #defaults: Partial<CallerDefaults>;
  readonly #answers = { cached: 0, upstream: 0, stale: 0 };
  #resources: Resources | undefined;

  constructor(shared: Shared, defaults: Partial<CallerDefaults>) {
    this.#shared = shared;
    this.#defaults = defaults;
  }

  forCaller(defaults: CallerDefaults): ScopedEsportsClient {
    return new ClientView(this.#shared, defaults);
  }

  stats(): ClientStats {
    return this.#shared.stats();
  }

  close(): Promise<void> {
    return this.#shared.close();
  }

  /** True once any of this view's answers was served stale (stale-if-error). */
  get servedStale(): boolean {
    return this.#answers.stale > 0;
  }

  get answers() {
    return { ...this.#answers };
  }

  get games() {
    return this.#all().games;
  }
  get series() {
    return this.#all().series;
  }
  get matches() {
    return this.#all().matches;
  }
  get teams() {
    return this.#all().teams;
  }
  get rosters() {
    return this.#all().rosters;
  }
  get players() {
    return this.#all().players;
  }
  get tournaments() {
    return this.#all().tournaments;
  }
  get stages() {
    return this.#all().stages;
  }
  get substages() {
    return this.#all().substages;
  }
  get casters() {
    return this.#all().casters;
  }
  get organisations() {
    return this.#all().organisations;
  }
  get lineups() {
    return this.#all().lineups;
  }
  get countries() {
    return this.#all().countries;
  }
  get assets() {
    return this.#all().assets;
  }
  get broadcasters() {
    return this.#all().broadcasters;
  }
  get platforms() {
    return this.#all().platforms;
  }
  get languages() {
    return this.#all().languages;
  }
  get incidents() {
    return this.#all().incidents;
  }
  get maps() {
    return this.#all().maps;
  }
  get mapLayouts() {
    return this.#all().mapLayouts;
  }
  get socialMediaPlatforms() {
    return this.#all().socialMediaPlatforms;
  }
  get regions() {
    return this.#all().regions;
  }
  get standingRosters() {
    return this.#all().standingRosters;
  }
  get images() {
    return this.#all().images;
  }
  get idSpaces() {
    return this.#all().idSpaces;
  }

  /** The resources, built once per view on first use, each sending with this view's defaults. */
  #all(): Resources {
    if (!this.#resources) {
      const send = (path: string, params: Record<string, string>, call: CallOptions | undefined) =>
        this.#send(path, params, call);
      const peek = (path: string) => this.#peek(path);
      const { v2, embedded } = this.#shared;
      this.#resources = v2 ? buildV2Resources(send, peek, embedded) : buildResources(send, peek);
    }
    return this.#resources;
  }

  #send(path: string, params: Record<string, string>, call: CallOptions | undefined): Promise<unknown> {
    const { pipeline, deadlines } = this.#shared;
    const priority: Priority = call?.priority ?? this.#defaults.priority ?? 'background';
    const deadlineMs =
      call?.deadlineMs ??
      this.#defaults.deadlineMs ??
      (priority === 'interactive' ? deadlines.interactiveMs : deadlines.backgroundMs);
    if (!(deadlineMs > 0)) throw new InvalidQueryError(`deadlineMs must be above 0; got ${deadlineMs}.`);
    return pipeline.get(path, params, { priority, deadlineMs, signal: call?.signal, onAnswer: this.#count });
  }

  async #peek(path: string): Promise<unknown> {
    const value = await this.#shared.pipeline.peek(path);
    if (value !== undefined) this.#count('cached');
    return value;
  }

  readonly #count = (kind: AnswerKind): void => {
    this.#answers[kind]++;
  };
}
