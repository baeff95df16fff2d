import type { Db } from "@/db/client";
import type { ApiKeyRecord } from "@/db/queries/api-keys";

/**
 * How long a key found valid is trusted without looking it up again. A
 * revocation made in this process (revokeApiKey) forgets the key at once; one
 * made by another app instance or the CLI on the same PostgreSQL is seen by
 * this process within this many seconds (stated in the README and on /docs).
 * The look-up was the costliest statement of an analyze request of ours
 * (3.1-3.8 ms on PGlite).
 */
export const API_KEY_CACHE_SECONDS = 5;
/** Keys remembered per database handle; the oldest is dropped beyond this. */
const MAX_CACHED_KEYS = 1_000;

interface CachedKey {
  record: ApiKeyRecord;
  /** When the record was read (the caller's clock, as verifyApiKey's). */
  readAt: number;
}

interface KeyCache {
  keys: Map<string, CachedKey>;
  /** Revocations forgotten so far: a look-up that began before one may not remember what it read. */
  revocations: number;
}

/**
 * One cache per database handle and per process, on globalThis: Next loads
 * this module more than once (each route, the admin's server actions), and a
 * revocation in one copy must reach the copy that verifies keys.
 */
const cacheKey = Symbol.for("shipshape.api-key-cache");
const caches: WeakMap<Db, KeyCache> = ((globalThis as { [cacheKey]?: WeakMap<Db, KeyCache> })[cacheKey] ??= new WeakMap());

function cacheOf(db: Db): KeyCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = { keys: new Map(), revocations: 0 }));
  return cache;
}

/** The record of the key with this digest if it was read less than API_KEY_CACHE_SECONDS before `now`. */
export function recallApiKey(db: Db, digest: string, now: Date): ApiKeyRecord | undefined {
  const { keys } = cacheOf(db);
  const cached = keys.get(digest);
  if (!cached) return undefined;
  const age = now.getTime() - cached.readAt;
  if (age >= 0 && age < API_KEY_CACHE_SECONDS * 1000) return cached.record;
  keys.delete(digest);
  return undefined;
}

/** Where a look-up starts: pass it to rememberApiKey with what the look-up found. */
export function lookUpMark(db: Db): number {
  return cacheOf(db).revocations;
}

/**
 * Remembers a key found valid (never a revoked or expired one), unless a
 * revocation in this process happened since its look-up began (`mark`): that
 * look-up may have read the row before the revocation committed.
 */
export function rememberApiKey(db: Db, digest: string, record: ApiKeyRecord, now: Date, mark: number): void {
  const cache = cacheOf(db);
  if (cache.revocations !== mark) return;
  cache.keys.delete(digest);
  cache.keys.set(digest, { record, readAt: now.getTime() });
  // A Map iterates in insertion order: the first entry is the oldest.
  if (cache.keys.size > MAX_CACHED_KEYS) cache.keys.delete(cache.keys.keys().next().value!);
}

/** Forgets a key (revoked, or found revoked or expired): its next request looks it up. */
export function forgetApiKey(db: Db, keyId: string): void {
  const cache = cacheOf(db);
  cache.revocations++;
  for (const [digest, cached] of cache.keys) if (cached.record.id === keyId) cache.keys.delete(digest);
}
