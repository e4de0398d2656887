/**
 * The fake Discord's Guild Scheduled Events, as Discord documents them
 * (https://discord.com/developers/docs/resources/guild-scheduled-event):
 * `GET|POST /guilds/{guild}/scheduled-events`, `GET|PATCH|DELETE /guilds/{guild}/scheduled-events/{id}`.
 *
 * What it enforces, like Discord: Manage Events (or Create Events, for the bot's own events) to
 * create, edit or delete (50013 otherwise); an external event (entity_type 3) needs
 * `entity_metadata.location` (1-100) and a `scheduled_end_time` after the start; name 1-100,
 * description at most 1000; a start in the future on create and on a scheduled event's move;
 * status only SCHEDULED -> ACTIVE | CANCELED and ACTIVE -> COMPLETED (completed and cancelled are
 * final); at most 100 uncompleted events per server (30038); an unknown event is 10070.
 * Completed and cancelled events are no longer listed (Discord drops them from the list).
 * Every create, change and delete, the bot's own and those by hand, is told to `onChange` (the fake
 * sends it on the gateway as GUILD_SCHEDULED_EVENT_CREATE, _UPDATE or _DELETE with the whole event,
 * to sessions with the GUILD_SCHEDULED_EVENTS intent, as Discord does).
 */
/* biome-ignore-all lint/suspicious/noExplicitAny: the fake speaks untyped JSON */

export interface FakeScheduledEvent {
  id: string;
  guild_id: string;
  channel_id: null;
  creator_id: string;
  name: string;
  description: string | null;
  scheduled_start_time: string;
  scheduled_end_time: string | null;
  privacy_level: number;
  status: 1 | 2 | 3 | 4;
  entity_type: number;
  entity_id: null;
  entity_metadata: { location: string } | null;
  user_count: number;
  image: null;
  recurrence_rule: null;
  /** Test record: every status it went through, in order. */
  statuses: number[];
  /** Test record: how many times it was modified (any field). */
  edits: number;
}

export class EventRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const MOVES: Record<number, number[]> = { 1: [2, 4], 2: [3], 3: [], 4: [] };
export const EVENT_LIMIT = 100;

/** The gateway dispatch of a change: its type, and the event as Discord sends it. */
export type EventChange = (t: 'CREATE' | 'UPDATE' | 'DELETE', event: unknown) => void;

function problemsOf(body: any, create: boolean, now: number, current?: FakeScheduledEvent): string[] {
  const problems: string[] = [];
  const has = (field: string) => body[field] !== undefined;
  if (create || has('name')) {
    if (typeof body.name !== 'string' || body.name.length < 1 || body.name.length > 100)
      problems.push('name: Must be between 1 and 100 in length.');
  }
  if (has('description') && body.description !== null && String(body.description).length > 1000)
    problems.push('description: Must be 1000 or fewer in length.');
  if (create && body.privacy_level !== 2) problems.push('privacy_level: Value must be one of {2}.');
  const entityType = body.entity_type ?? current?.entity_type;
  if (create && ![1, 2, 3].includes(body.entity_type))
    problems.push('entity_type: Value must be one of {1, 2, 3}.');
  const start = has('scheduled_start_time') ? Date.parse(body.scheduled_start_time) : undefined;
  const endRaw = has('scheduled_end_time') ? body.scheduled_end_time : current?.scheduled_end_time;
  if (create && start === undefined) problems.push('scheduled_start_time: This field is required.');
  if (start !== undefined && Number.isNaN(start))
    problems.push('scheduled_start_time: Not an ISO8601 timestamp.');
  if (start !== undefined && start <= now)
    problems.push('scheduled_start_time: Cannot schedule event in the past.');
  if (entityType === 3) {
    const location = has('entity_metadata')
      ? body.entity_metadata?.location
      : current?.entity_metadata?.location;
    if (typeof location !== 'string' || location.length < 1 || location.length > 100)
      problems.push('entity_metadata.location: Must be between 1 and 100 in length.');
    if (endRaw === undefined || endRaw === null)
      problems.push('scheduled_end_time: Required for external events.');
    const begins = start ?? (current ? Date.parse(current.scheduled_start_time) : Number.NaN);
    if (endRaw && !(Date.parse(endRaw) > begins))
      problems.push('scheduled_end_time: Must be after scheduled_start_time.');
  }
  return problems;
}

/** One guild's events and the rules above; the fake routes to it. */
export class FakeScheduledEvents {
  readonly #byGuild = new Map<string, FakeScheduledEvent[]>();

  constructor(
    private readonly snowflake: () => string,
    private readonly botId: string,
    private readonly onChange: EventChange = () => undefined,
  ) {}

  /** Every event of the guild, final ones included (the list endpoint leaves those out). */
  all(guildId: string): FakeScheduledEvent[] {
    return [...(this.#byGuild.get(guildId) ?? [])];
  }

  /** Someone deletes an event by hand in Discord (GUILD_SCHEDULED_EVENT_DELETE follows, as for any delete). */
  deleteByHand(guildId: string, eventId: string): void {
    const gone = this.all(guildId).find((e) => e.id === eventId);
    this.#byGuild.set(
      guildId,
      this.all(guildId).filter((e) => e.id !== eventId),
    );
    if (gone) this.onChange('DELETE', publicEvent(gone));
  }

  /** A server admin's own event (counts toward the 100). */
  addByHand(guildId: string, name: string, startMs: number): FakeScheduledEvent {
    const event = this.#make(guildId, '700000000000000000', {
      name,
      scheduled_start_time: new Date(startMs).toISOString(),
      scheduled_end_time: new Date(startMs + 3600_000).toISOString(),
      entity_type: 3,
      privacy_level: 2,
      entity_metadata: { location: 'somewhere' },
    });
    this.onChange('CREATE', publicEvent(event));
    return event;
  }

  list(guildId: string): unknown[] {
    return this.all(guildId)
      .filter((e) => e.status === 1 || e.status === 2)
      .map(publicEvent);
  }

  get(guildId: string, id: string): unknown {
    return publicEvent(this.#find(guildId, id));
  }

  create(guildId: string, body: any, canManage: boolean, now: number): unknown {
    if (!canManage) throw new EventRefusal(403, 50013, 'Missing Permissions');
    const problems = problemsOf(body ?? {}, true, now);
    if (problems.length > 0) throw new EventRefusal(400, 50035, `Invalid Form Body: ${problems.join('; ')}`);
    const open = this.all(guildId).filter((e) => e.status === 1 || e.status === 2).length;
    if (open >= EVENT_LIMIT)
      throw new EventRefusal(
        400,
        30038,
        'Maximum number of uncompleted guild scheduled events reached (100)',
      );
    const made = publicEvent(this.#make(guildId, this.botId, body));
    this.onChange('CREATE', made);
    return made;
  }

  modify(guildId: string, id: string, body: any, canManage: boolean, now: number): unknown {
    const event = this.#find(guildId, id);
    if (!canManage) throw new EventRefusal(403, 50013, 'Missing Permissions');
    if (event.status === 3 || event.status === 4)
      throw new EventRefusal(400, 180000, 'Cannot modify a finished event');
    const patch = body ?? {};
    const moving = patch.scheduled_start_time !== undefined;
    if (moving && event.status !== 1)
      throw new EventRefusal(
        400,
        50035,
        'Invalid Form Body: scheduled_start_time: Cannot move an active event.',
      );
    const problems = problemsOf(patch, false, now, event);
    if (problems.length > 0) throw new EventRefusal(400, 50035, `Invalid Form Body: ${problems.join('; ')}`);
    if (patch.status !== undefined && patch.status !== event.status) {
      if (!MOVES[event.status]!.includes(patch.status))
        throw new EventRefusal(
          400,
          50035,
          `Invalid Form Body: status: Cannot go from ${event.status} to ${patch.status}.`,
        );
      event.status = patch.status;
      event.statuses.push(patch.status);
    }
    if (patch.name !== undefined) event.name = patch.name;
    if (patch.description !== undefined) event.description = patch.description;
    if (moving) event.scheduled_start_time = new Date(patch.scheduled_start_time).toISOString();
    if (patch.scheduled_end_time !== undefined)
      event.scheduled_end_time = new Date(patch.scheduled_end_time).toISOString();
    if (patch.entity_metadata !== undefined) event.entity_metadata = patch.entity_metadata;
    event.edits++;
    this.onChange('UPDATE', publicEvent(event));
    return publicEvent(event);
  }

  remove(guildId: string, id: string, canManage: boolean): void {
    this.#find(guildId, id);
    if (!canManage) throw new EventRefusal(403, 50013, 'Missing Permissions');
    this.deleteByHand(guildId, id);
  }

  #find(guildId: string, id: string): FakeScheduledEvent {
    const event = this.#byGuild.get(guildId)?.find((e) => e.id === id);
    if (!event) throw new EventRefusal(404, 10070, 'Unknown Guild Scheduled Event');
    return event;
  }

  #make(guildId: string, creator: string, body: any): FakeScheduledEvent {
    const event: FakeScheduledEvent = {
      id: this.snowflake(),
      guild_id: guildId,
      channel_id: null,
      creator_id: creator,
      name: body.name,
      description: body.description ?? null,
      // Discord answers timestamps in its own form, with +00:00.
      scheduled_start_time: new Date(body.scheduled_start_time).toISOString().replace('Z', '+00:00'),
      scheduled_end_time: body.scheduled_end_time
        ? new Date(body.scheduled_end_time).toISOString().replace('Z', '+00:00')
        : null,
      privacy_level: body.privacy_level,
      status: 1,
      entity_type: body.entity_type,
      entity_id: null,
      entity_metadata: body.entity_metadata ?? null,
      user_count: 0,
      image: null,
      recurrence_rule: null,
      statuses: [1],
      edits: 0,
    };
    const list = this.#byGuild.get(guildId) ?? [];
    list.push(event);
    this.#byGuild.set(guildId, list);
    return event;
  }
}

function publicEvent(event: FakeScheduledEvent): unknown {
  const { statuses: _s, edits: _e, ...rest } = event;
  return rest;
}
