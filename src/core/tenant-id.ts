/**
 * Tenant ids: one place that knows their format. A tenant is one Discord server, one Slack workspace
 * (or Enterprise Grid organisation) or the terminal, and its id is `<platform>:<key>`:
 * `discord:<guild id>`, `slack:<team id>` (`slack:<enterprise id>.<team id>` on a Grid), and
 * `terminal:local`. The id is the tenant store's namespace and part of the notification ledger's keys.
 */

export type Platform = 'discord' | 'slack' | 'terminal';

export const PLATFORMS: readonly Platform[] = ['discord', 'slack', 'terminal'];

/** The parts of a tenant id. */
interface TenantRef {
  platform: Platform;
  /** The guild id, the Slack workspace key, or `local` for the terminal. */
  key: string;
}

/** Keys are what the platforms give: digits (Discord), letters and digits with a dot on a Grid (Slack). */
const TENANT_ID = /^(discord|slack|terminal):([A-Za-z0-9_.-]{1,64})$/;

/** The one terminal tenant. */
export const TERMINAL_TENANT_KEY = 'local';
export const TERMINAL_TENANT_ID = formatTenantId('terminal', TERMINAL_TENANT_KEY);

export function formatTenantId(platform: Platform, key: string): string {
  return `${platform}:${key}`;
}

/** A Discord server's tenant id. */
export function discordTenantId(guildId: string): string {
  return formatTenantId('discord', guildId);
}

/**
 * A Slack workspace's key: its team id, or `<enterprise>.<team>` on an Enterprise Grid, so two
 * organisations' workspaces with the same team id never share settings.
 */
export function slackTenantKey(teamId: string, enterpriseId?: string | null): string {
  return enterpriseId ? `${enterpriseId}.${teamId}` : teamId;
}

/** A Slack workspace's tenant id. */
export function slackTenantId(teamId: string, enterpriseId?: string | null): string {
  return formatTenantId('slack', slackTenantKey(teamId, enterpriseId));
}

/** The parts of `id`, or undefined when it is not a tenant id. */
export function parseTenantId(id: string): TenantRef | undefined {
  const match = TENANT_ID.exec(id);
  if (!match) return undefined;
  return { platform: match[1] as Platform, key: match[2]! };
}

export function isTenantId(id: string): boolean {
  return TENANT_ID.test(id);
}
