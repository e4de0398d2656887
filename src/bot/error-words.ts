/**
 * What a person reads for an expected failure that is not their own mistake, in their language:
 * the data service's and the settings store's failures (src/core/errors.ts audiences). The errors
 * keep their English `userMessage` for logs and `ask`; the runtime shows these words instead.
 */
import { NotFoundError, ServiceError } from '../client/errors.ts';
import type { MatchdayError } from '../core/errors.ts';
import type { MessageKey, Translate } from '../i18n/i18n.ts';
import { isLasting, StoreError, type StoreFailure } from './store-backend.ts';

const STORE_CAUSE: Record<StoreFailure, MessageKey> = {
  unreachable: 'platform.errors.storeCause.unreachable',
  timeout: 'platform.errors.storeCause.timeout',
  damaged: 'platform.errors.storeCause.damaged',
  'read-only': 'platform.errors.storeCause.readOnly',
  full: 'platform.errors.storeCause.full',
  busy: 'platform.errors.storeCause.busy',
  'newer-version': 'platform.errors.storeCause.newerVersion',
  auth: 'platform.errors.storeCause.auth',
  tls: 'platform.errors.storeCause.tls',
  failed: 'platform.errors.storeCause.failed',
};

/** Why the settings store failed, as a clause ("the settings store cannot be reached"). */
export function storeCause(error: StoreError, t: Translate): string {
  return t(STORE_CAUSE[error.failure]);
}

/** The error's message for a person in `t`'s language; errors without words here keep their own. */
export function userMessage(error: MatchdayError, t: Translate): string {
  if (error instanceof StoreError)
    return t(isLasting(error.failure) ? 'platform.errors.storeLasting' : 'platform.errors.store', {
      cause: storeCause(error, t),
    });
  if (error instanceof NotFoundError) return t('platform.errors.notFound');
  if (error instanceof ServiceError) {
    if (error.audience === 'outage') return t('platform.errors.serviceDown');
    if (error.audience === 'user') return t('platform.errors.notFound');
    return t('platform.errors.serviceFailed');
  }
  // English keeps the message that names the list; other languages say a list of names.
  if (error.code === 'NAMES_UNAVAILABLE' && t.locale !== 'en') return t('platform.errors.namesUnavailable');
  return error.userMessage;
}
