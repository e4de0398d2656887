/**
 * Where v2 tokens are shared between processes (issue 11): the store every process of one
 * deployment already shares (`STORE_URL`), so every process on a credential pair asks the service
 * for one token an hour between them, not one each. SQLite: a table of its own (`v2_tokens`) in the
 * store's file; Redis: keys under `matchday:v2-token:`. Each record expires with its token.
 */
import KeyvRedis from '@keyv/redis';
import KeyvSqlite from '@keyv/sqlite';
import Keyv from 'keyv';

export type TokenStoreConfig = { kind: 'sqlite'; path: string } | { kind: 'redis'; url: string };

/** The keyv the v2 client keeps its token in (`ClientOptions.v2.tokenStore`); close it with `disconnect()`. */
export function openTokenStore(store: TokenStoreConfig): Keyv {
  if (store.kind === 'redis')
    return new Keyv({ store: new KeyvRedis(store.url), namespace: 'matchday:v2-token' });
  return new Keyv({
    store: new KeyvSqlite({ uri: `sqlite://${store.path}`, table: 'v2_tokens', busyTimeout: 1000 }),
  });
}
