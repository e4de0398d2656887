/**
 * A settings store that cannot be used says why and which variable to change: a refused Redis
 * password (WRONGPASS), TLS against a plain server, nothing listening, and a damaged SQLite file
 * (whose words say that waiting does not help). Redis is a real one at $REDIS_URL when set; the
 * refusals are also spoken by a loopback server in Redis's own protocol (RESP), so they run
 * everywhere. The password never appears in a message.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { userMessage } from '../../src/bot/error-words.ts';
import { StoreError } from '../../src/bot/store-backend.ts';
import { openTenantStore } from '../../src/bot/tenants.ts';
import { loadConfig, safeUrl } from '../../src/config.ts';
import { translator } from '../../src/i18n/i18n.ts';
import { captureLogs } from './helpers.ts';

const PASSWORD = 'not-the-password-7f3a';
const logs = captureLogs([PASSWORD]);

/** A loopback server answering every request with one RESP error line, as Redis does. */
async function respServer(answer: string): Promise<{ port: number; server: Server; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.on('data', () => socket.write(`${answer}\r\n`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server, sockets };
}

async function openFailure(url: string): Promise<StoreError> {
  const error = await openTenantStore({ kind: 'redis', url, mirror: false }, { logger: logs.logger }).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreError);
  return error as StoreError;
}

describe('a Redis settings store that cannot be used', () => {
  let wrongPass: Awaited<ReturnType<typeof respServer>>;
  beforeAll(async () => {
    wrongPass = await respServer('-WRONGPASS invalid username-password pair or user is disabled.');
  });
  afterAll(async () => {
    for (const socket of wrongPass.sockets) socket.destroy();
    await new Promise((resolve) => wrongPass.server.close(resolve));
  });

  it('names a refused password (WRONGPASS) and STORE_URL, not "no answer in time", and never the password', async () => {
    const url = `redis://:${PASSWORD}@127.0.0.1:${wrongPass.port}`;
    const error = await openFailure(url);
    expect(error.failure).toBe('auth');
    expect(error.message).toContain(`Cannot reach the settings store ${safeUrl(url)}`);
    expect(error.message).toContain('Redis refused the password (WRONGPASS');
    expect(error.message).toContain('Check the password in STORE_URL');
    expect(error.message).not.toContain('no answer');
    expect(error.message).not.toContain(PASSWORD);
    expect(logs.text()).not.toContain(PASSWORD);
  });

  it('names a TLS handshake against a plain server (rediss:// where redis:// is meant)', async () => {
    const error = await openFailure(`rediss://127.0.0.1:${wrongPass.port}`);
    expect(error.failure).toBe('tls');
    expect(error.message).toContain('the TLS handshake failed');
    expect(error.message).toContain('use redis:// in STORE_URL');
  });

  it('names a port where nothing listens (ECONNREFUSED) and STORE_URL', async () => {
    const closed = await respServer('-ERR unused');
    const { port } = closed;
    await new Promise((resolve) => closed.server.close(resolve));
    const error = await openFailure(`redis://127.0.0.1:${port}`);
    expect(error.failure).toBe('unreachable');
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).toContain('Check STORE_URL');
  });

  it.skipIf(!process.env.REDIS_URL)('names a wrong password on the real Redis at $REDIS_URL', async () => {
    const real = new URL(process.env.REDIS_URL!);
    real.username = '';
    real.password = PASSWORD;
    const error = await openFailure(real.href);
    expect(error.failure).toBe('auth');
    expect(error.message).toContain('STORE_URL');
    expect(error.message).not.toContain(PASSWORD);
  });
});

describe('a damaged SQLite settings store', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'matchday-store-errors-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers a write with "damaged" and who has to act, in the person\'s language, never "try again"', async () => {
    const path = join(dir, 'matchday.sqlite');
    writeFileSync(path, 'SQLite format 3\0 but then nothing sound at all\n'.repeat(100));
    const store = await openTenantStore(
      { kind: 'sqlite', url: `sqlite://${path}`, path },
      { logger: logs.logger },
    );
    const error = (await store
      .update('discord:1', (s) => ({ ...s, timezone: 'Europe/Oslo' }))
      .catch((e: unknown) => e)) as StoreError;
    expect(error).toBeInstanceOf(StoreError);
    expect(error.failure).toBe('damaged');
    // The operator's words name the file's state and the remedy.
    expect(error.message).toMatch(/damaged/);
    expect(error.message).toMatch(/restore a backup/);
    const en = userMessage(error, translator('en'));
    expect(en).toContain('the settings store is damaged');
    expect(en).toContain('Waiting will not fix this');
    expect(en).not.toMatch(/try again/i);
    const de = userMessage(error, translator('de'));
    expect(de).toContain('beschädigt');
    expect(de).toContain('Warten hilft nicht');
    expect(de).not.toContain('gleich noch einmal');
    // A passing outage keeps its "try again shortly".
    expect(userMessage(new StoreError('x', 'timeout'), translator('en'))).toContain(
      'Please try again shortly',
    );
    await store.close();
  });

  it('answers /settings timezone from a running app with the damaged-store words, and the app knows it', async () => {
    const path = join(dir, 'app', 'matchday.sqlite');
    await openTenantStore({ kind: 'sqlite', url: `sqlite://${path}`, path }, { logger: logs.logger }).then(
      (s) => s.close(),
    );
    writeFileSync(path, 'this is not a SQLite database\n'.repeat(200));
    const app = await createApp(loadConfig({ STORE_URL: `sqlite://${path}`, LOG_LEVEL: 'silent' }), {
      logger: logs.logger,
      skipNameRefresh: true,
    });
    try {
      expect(app.storeProblem?.failure).toBe('damaged');
      const call = await app.runtime.run({
        platform: 'terminal',
        tenantKey: 'local',
        command: 'settings',
        subcommand: 'timezone',
        args: { zone: 'Europe/Oslo' },
        user: { id: 'u1', name: 'ann', isAdmin: true },
        channel: { id: 'terminal', name: 'terminal' },
      });
      expect(call.outcome).not.toBe('ok');
      expect(call.message).toContain('the settings store is damaged');
      expect(call.message).toContain('Waiting will not fix this');
      expect(call.message).not.toMatch(/try again/i);
    } finally {
      await app.close();
    }
  });
});
