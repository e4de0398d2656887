/**
 * Discord's Guild Scheduled Events over REST (discord.js' REST client, as the notifications are
 * posted): list, create (external, guild only), modify and delete. The mirror that decides what to
 * do is platform-free (`src/notify/scheduled-events.ts`); this only speaks Discord's shapes and maps
 * its refusals: 50013/50001 (Manage Events missing) are permanent, 10070 is an event deleted by
 * hand, 30038 is the server's limit of 100 uncompleted events.
 */
import { DiscordAPIError, type REST, Routes } from 'discord.js';
import { DeliveryError } from '../../notify/delivery-error.ts';
import type {
  EventPatch,
  EventSpec,
  EventStatus,
  GuildEvent,
  ScheduledEventsApi,
} from '../../notify/scheduled-events.ts';
import { toDeliveryError } from './delivery-error.ts';

/** Discord's privacy level GUILD_ONLY and entity type EXTERNAL. */
const GUILD_ONLY = 2;
const EXTERNAL = 3;

interface ApiEvent {
  id: string;
  name: string;
  description?: string | null;
  scheduled_start_time: string;
  scheduled_end_time: string | null;
  status: EventStatus;
  entity_metadata?: { location?: string } | null;
}

function fromApi(event: ApiEvent): GuildEvent {
  return {
    id: event.id,
    name: event.name,
    description: event.description ?? '',
    // Discord answers with its own ISO form (+00:00): compared as instants, kept as ours.
    start: new Date(event.scheduled_start_time).toISOString(),
    end: event.scheduled_end_time ? new Date(event.scheduled_end_time).toISOString() : '',
    status: event.status,
    location: event.entity_metadata?.location ?? '',
  };
}

function toApi(patch: EventPatch): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (patch.name !== undefined) body.name = patch.name;
  if (patch.description !== undefined) body.description = patch.description;
  if (patch.start !== undefined) body.scheduled_start_time = patch.start;
  if (patch.end !== undefined) body.scheduled_end_time = patch.end;
  if (patch.location !== undefined) body.entity_metadata = { location: patch.location };
  if (patch.status !== undefined) body.status = patch.status;
  return body;
}

function eventError(error: unknown, where: string): DeliveryError {
  if (error instanceof DiscordAPIError) {
    if (error.code === 10070)
      return new DeliveryError('transient', 'UNKNOWN_EVENT', `The scheduled event is gone (${where}).`);
    if (error.code === 30038)
      return new DeliveryError(
        'transient',
        'EVENT_LIMIT',
        `The server has the most uncompleted scheduled events Discord allows (${where}).`,
      );
    if (error.code === 50013 || error.code === 50001)
      return new DeliveryError(
        'permanent',
        'MISSING_PERMISSIONS',
        `Discord refused Matchday's scheduled events in server ${where}: the Manage Events permission is missing (${error.code}).`,
      );
  }
  return toDeliveryError(error, `the scheduled events of server ${where}`);
}

export class DiscordScheduledEvents implements ScheduledEventsApi {
  constructor(private readonly rest: REST) {}

  async list(guildId: string): Promise<GuildEvent[]> {
    try {
      const events = (await this.rest.get(Routes.guildScheduledEvents(guildId))) as ApiEvent[];
      return events.map(fromApi);
    } catch (error) {
      throw eventError(error, guildId);
    }
  }

  async create(guildId: string, spec: EventSpec): Promise<GuildEvent> {
    try {
      const made = (await this.rest.post(Routes.guildScheduledEvents(guildId), {
        body: {
          name: spec.name,
          description: spec.description,
          scheduled_start_time: spec.start,
          scheduled_end_time: spec.end,
          privacy_level: GUILD_ONLY,
          entity_type: EXTERNAL,
          entity_metadata: { location: spec.location },
        },
      })) as ApiEvent;
      return fromApi(made);
    } catch (error) {
      throw eventError(error, guildId);
    }
  }

  async edit(guildId: string, eventId: string, patch: EventPatch): Promise<GuildEvent> {
    try {
      const edited = (await this.rest.patch(Routes.guildScheduledEvent(guildId, eventId), {
        body: toApi(patch),
      })) as ApiEvent;
      return fromApi(edited);
    } catch (error) {
      throw eventError(error, guildId);
    }
  }

  async remove(guildId: string, eventId: string): Promise<void> {
    try {
      await this.rest.delete(Routes.guildScheduledEvent(guildId, eventId));
    } catch (error) {
      if (error instanceof DiscordAPIError && error.code === 10070) return;
      throw eventError(error, guildId);
    }
  }
}
