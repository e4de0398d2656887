/**
 * Who wants what: every channel's subscription (and each person's DM reminders, `jobs/dm.ts`),
 * indexed by game x tier and by followed team, so finding the subscribers of a series never scans
 * every tenant. `wants` (`plan.ts`) stays the one rule; the index only narrows the candidates.
 */
import type { Series } from '../protocol/types.ts';
import { announces, type Subscription, subscriptionsOf, wants } from './plan.ts';
import type { NotifyLogger, NotifyTenants } from './types.ts';

/** Reads every tenant's subscriptions (a tenant whose settings cannot be read is skipped and logged). */
export async function tenantSubscriptions(
  tenants: NotifyTenants,
  logger: NotifyLogger,
): Promise<Subscription[]> {
  const ids = await tenants.list();
  const subs: Subscription[] = [];
  for (const id of ids) {
    try {
      subs.push(...subscriptionsOf(id, await tenants.get(id)));
    } catch (error) {
      logger.warn({ tenant: id, err: error }, 'skipping a tenant whose settings cannot be read');
    }
  }
  return subs;
}

export class SubscriptionIndex {
  /** Every subscription, as last set. */
  all: Subscription[] = [];
  /** Does any channel take live cards or results? (If none, live series need no reads for cards.) */
  anyLiveOrResults = false;
  /** Digest subscriptions grouped by (timezone, time): one slot computation per group per tick. */
  digestGroups = new Map<string, Subscription[]>();

  /** The team of a roster (see `NotifySource.teamOfRoster`). */
  readonly #teamOfRoster: (rosterId: number) => number | undefined;
  /** Subscriptions indexed by `game|tier` (`*|tier` for every game) and by followed team. */
  #byGameTier = new Map<string, Subscription[]>();
  #byTeam = new Map<number, Subscription[]>();
  /** Subscribers per series, cached until the subscriptions or the series' teams change. */
  readonly #subscribers = new Map<number, { teams: string; subs: Subscription[] }>();
  readonly #subscriberSets = new WeakMap<Subscription[], Set<Subscription>>();
  /** Reminder leads per index bucket, and per (game, tier, teams) asked: rebuilt with the index. */
  #bucketLeads = new Map<string, number[]>();
  #leadMemo = new Map<string, number[]>();

  /** Is a series a qualifier (its tournament's or stage's title)? For a person's "no qualifiers". */
  readonly #qualifier: (series: Series) => boolean;
  /** Some person follows a team with options: the qualifier test is asked (else never). */
  #anyFollowOptions = false;

  constructor(
    teamOfRoster: (rosterId: number) => number | undefined,
    qualifier: (series: Series) => boolean = () => false,
  ) {
    this.#teamOfRoster = teamOfRoster;
    this.#qualifier = qualifier;
  }

  set(subs: Subscription[]): void {
    this.all = subs;
    this.#byGameTier = new Map();
    this.#byTeam = new Map();
    const add = <K>(map: Map<K, Subscription[]>, key: K, sub: Subscription) => {
      const list = map.get(key);
      if (list) list.push(sub);
      else map.set(key, [sub]);
    };
    for (const sub of subs) {
      for (const tier of sub.tiers) {
        if (sub.games === null) add(this.#byGameTier, `*|${tier}`, sub);
        else for (const game of sub.games) add(this.#byGameTier, `${game}|${tier}`, sub);
      }
      for (const team of sub.teams) add(this.#byTeam, team, sub);
    }
    this.anyLiveOrResults = subs.some((s) => s.kinds.has('live') || s.kinds.has('results'));
    this.#anyFollowOptions = subs.some((s) => s.followOptions !== undefined);
    this.#indexLeads();
    this.digestGroups = new Map();
    for (const sub of subs) {
      if (!sub.kinds.has('digest')) continue;
      const k = `${sub.timezone}|${sub.digestTime}`;
      const list = this.digestGroups.get(k) ?? [];
      list.push(sub);
      this.digestGroups.set(k, list);
    }
    // The reads cover the whole feed whatever the subscriptions; subscriber lists are recomputed lazily.
    this.#subscribers.clear();
  }

  /** The known teams playing a series (from its rosters). */
  #teamsOf(series: Series): number[] {
    return series.participants.flatMap((p) => {
      const t = this.#teamOfRoster(p.roster.id);
      return t === undefined ? [] : [t];
    });
  }

  /** Does `sub` hear of this series' going live or result (`announces`, with the teams playing)? */
  announces(sub: Subscription, series: Series, event: 'live' | 'result'): boolean {
    return announces(sub, series, event, sub.followOptions ? this.#teamsOf(series) : []);
  }

  /** The subscriptions that want this series (cached per series until its teams or the subscriptions change). */
  subscribersOf(series: Series): Subscription[] {
    const teams = this.#teamsOf(series);
    // Keyed by rosters and their known teams: a roster whose team becomes known recomputes the list;
    // and by whether it is a qualifier, when someone's follow leaves qualifiers out (titles load late).
    const qualifier = this.#anyFollowOptions && this.#qualifier(series);
    const key = `${series.participants.map((p) => p.roster.id).join(',')}|${teams.join(',')}${qualifier ? '|q' : ''}`;
    const cached = this.#subscribers.get(series.id);
    if (cached && cached.teams === key) return cached.subs;
    // Candidates from the index (no scan of every tenant); `wants` stays the one rule.
    const candidates = new Set<Subscription>([
      ...(this.#byGameTier.get(`${series.game.id}|${series.tier}`) ?? []),
      ...(this.#byGameTier.get(`*|${series.tier}`) ?? []),
    ]);
    for (const team of teams) for (const sub of this.#byTeam.get(team) ?? []) candidates.add(sub);
    const subs = [...candidates].filter((sub) => wants(sub, series, teams, qualifier));
    this.#subscribers.set(series.id, { teams: key, subs });
    return subs;
  }

  /**
   * The subscriptions that follow the team of one of these rosters and would want `series` were
   * that team playing it: a tournament's end reaches the followers of every team entered.
   */
  followersOf(series: Series, rosters: readonly number[]): Subscription[] {
    const qualifier = this.#anyFollowOptions && this.#qualifier(series);
    const found = new Set<Subscription>();
    for (const roster of rosters) {
      const team = this.#teamOfRoster(roster);
      if (team === undefined) continue;
      for (const sub of this.#byTeam.get(team) ?? [])
        if (wants(sub, series, [team], qualifier)) found.add(sub);
    }
    return [...found];
  }

  /** The subscribers of a series as a set (digests test membership for every channel). */
  subscriberSet(series: Series): Set<Subscription> {
    const list = this.subscribersOf(series);
    let set = this.#subscriberSets.get(list);
    if (!set) {
      set = new Set(list);
      this.#subscriberSets.set(list, set);
    }
    return set;
  }

  /** Drops a forgotten series' cached subscriber list. */
  forget(seriesId: number): void {
    this.#subscribers.delete(seriesId);
  }

  /**
   * The reminder leads that may apply to a series: those of its index buckets (game x tier, every
   * game x tier, its teams), without building its subscriber list. A superset at worst (a team
   * bucket's channel may not want this series): planning then finds no member for that lead.
   */
  leadsOf(series: Series): number[] {
    const teams = series.participants.map((p) => this.#teamOfRoster(p.roster.id) ?? -1);
    const memoKey = `${series.game.id}|${series.tier}|${teams.join(',')}`;
    let leads = this.#leadMemo.get(memoKey);
    if (!leads) {
      const set = new Set<number>();
      const buckets = [
        `${series.game.id}|${series.tier}`,
        `*|${series.tier}`,
        ...teams.map((t) => `team:${t}`),
      ];
      for (const bucket of buckets) for (const lead of this.#bucketLeads.get(bucket) ?? []) set.add(lead);
      leads = [...set];
      this.#leadMemo.set(memoKey, leads);
    }
    return leads;
  }

  #indexLeads(): void {
    const sets = new Map<string, Set<number>>();
    const add = (bucket: string, sub: Subscription) => {
      let set = sets.get(bucket);
      if (!set) {
        set = new Set();
        sets.set(bucket, set);
      }
      for (const lead of sub.leads) set.add(lead);
    };
    for (const [bucket, subs] of this.#byGameTier)
      for (const sub of subs) if (sub.kinds.has('reminders')) add(bucket, sub);
    for (const [team, subs] of this.#byTeam)
      for (const sub of subs) if (sub.kinds.has('reminders')) add(`team:${team}`, sub);
    this.#bucketLeads = new Map([...sets].map(([k, v]) => [k, [...v]]));
    this.#leadMemo = new Map();
  }
}
