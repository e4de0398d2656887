/** Shared set-up for the bot tests: a real SQLite store in a temp dir and a log collector. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type Logger } from '../../src/bot/logger.ts';
import { openTenantStore, type TenantStore } from '../../src/bot/tenants.ts';

export interface LogCapture {
  logger: Logger;
  lines: string[];
  text(): string;
}

export function captureLogs(secrets: string[] = []): LogCapture {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    secrets: new Set(secrets),
    destination: { write: (l: string) => lines.push(l) },
  });
  return { logger, lines, text: () => lines.join('') };
}

export interface TempStore {
  dir: string;
  path: string;
  store: TenantStore;
  cleanup(): Promise<void>;
}

export async function tempStore(
  logger: Logger,
  dir = mkdtempSync(join(tmpdir(), 'matchday-store-')),
): Promise<TempStore> {
  const path = join(dir, 'nested', 'matchday.sqlite');
  const store = await openTenantStore({ kind: 'sqlite', url: `sqlite://${path}`, path }, { logger });
  return {
    dir,
    path,
    store,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
