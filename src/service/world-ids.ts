/**
 * The id spaces (1-4) of the world: each provider's external ids are a reversible scramble of the
 * native ids, keyed by the space's name, and some series and matches are not carried at all.
 */
import { ID_SPACES } from '../protocol/fields.ts';
import { hash32 } from './random.ts';

const MASK = 1n << 40n;
const SPACE_KEYS = ID_SPACES.map((s) => ({
  id: s.id as number,
  name: s.name as string,
  mul: BigInt((hash32(`mul${s.name}`) | 1) >>> 0),
  xor: BigInt(hash32(`xor${s.name}`)) * 97n,
}));

function inverseOdd(a: bigint): bigint {
  // Newton iteration for the inverse of an odd number modulo 2^40.
  let x = a;
  for (let i = 0; i < 6; i++) x = (x * (2n - a * x)) % MASK;
  return ((x % MASK) + MASK) % MASK;
}
const SPACE_INVERSES = SPACE_KEYS.map((k) => inverseOdd(k.mul));

/**
 * The external id of a resource in an id space (1-4) for a world's seed, or null when that provider
 * does not carry it. External ids are integers (a path `{id}` is an integer), reversible by `fromExternal`.
 */
export function externalId(seed: number, space: number, kind: string, id: number): number | null {
  const key = SPACE_KEYS[space - 1];
  if (!key) return null;
  if ((kind === 'series' || kind === 'match') && hash32(`${seed}|${space}|${kind}|${id}`) % 100 >= 80)
    return null;
  return Number(((BigInt(id) * key.mul) % MASK) ^ key.xor);
}

/** The native id behind an external id, or null when it is not one of that space's ids. */
export function fromExternal(seed: number, space: number, kind: string, external: number): number | null {
  const key = SPACE_KEYS[space - 1];
  const inverse = SPACE_INVERSES[space - 1];
  if (!key || inverse === undefined || !Number.isSafeInteger(external) || external < 0) return null;
  const native = Number(((BigInt(external) ^ key.xor) * inverse) % MASK);
  return externalId(seed, space, kind, native) === external ? native : null;
}
