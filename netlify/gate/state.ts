/**
 * The gate's state in Netlify Blobs: key hashes, daily quota counters, access requests.
 *
 * Layout (site-wide stores, named by routes.json `stores`; `generator/gate/netlify_blobs.py`
 * is the operator's side):
 *
 *   api-keys         keys/<sha256 of the key>   {"id", "status", "hint", "email", ...}
 *                    ids/<key id>               {"hash": <sha256>}  (for the operator's CLI)
 *   quota            <YYYY-MM-DD>/<key id>      the day's count, as decimal text
 *   access-requests  <request id>               {"id", "email", "zweck", "status", "created_at", ...}
 *   access-bursts    <sha256 of the address>    recent request times (ms), for the burst limit
 *
 * Counters and burst lists change by compare-and-swap: read with strong consistency, write
 * with `onlyIfMatch` (or `onlyIfNew` for the first write), retry a bounded number of times.
 * Two concurrent requests can therefore never both take the last unit of a quota.
 */

import { getStore } from "@netlify/blobs";

import type { Stores } from "./routes.ts";

/** Attempts of one compare-and-swap before giving up with StateBusyError. */
const CAS_ATTEMPTS = 20;

export class StateBusyError extends Error {}

export interface KeyRecord {
  id: string;
  status: string; // active | revoked
}

export interface Consumed {
  allowed: boolean;
  used: number;
}

export interface BurstResult {
  allowed: boolean;
  /** When refused: ms since the epoch at which the oldest request leaves the window. */
  freesAt?: number;
}

export interface AccessRequest {
  id: string;
  email: string;
  zweck: string;
  status: "pending";
  created_at: string;
}

/** What the gate needs from its state; tests of the handler can pass another one. */
export interface GateState {
  keyByHash(hash: string): Promise<KeyRecord | null>;
  consume(keyId: string, day: string, limit: number): Promise<Consumed>;
  reserveBurst(address: string, nowMs: number, burst: number, windowMs: number): Promise<BurstResult>;
  storeRequest(request: AccessRequest): Promise<boolean>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Full-jitter backoff: spreads contending writers so one of them wins each round. */
const backoff = (attempt: number) => sleep(Math.random() * Math.min(200, 5 * 2 ** attempt));

/**
 * Read-modify-write one blob by compare-and-swap. `update` returns the new text, or null to
 * leave the blob as it is (and end); the result is what `update` saw last.
 */
async function compareAndSwap<T>(
  storeName: string,
  key: string,
  update: (current: string | null) => { next: string | null; result: T },
): Promise<T> {
  const store = getStore({ name: storeName, consistency: "strong" });
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const current = await store.getWithMetadata(key, { type: "text", consistency: "strong" });
    const { next, result } = update(current ? current.data : null);
    if (next === null) return result;
    const written = current
      ? await store.set(key, next, { onlyIfMatch: current.etag! })
      : await store.set(key, next, { onlyIfNew: true });
    if (written.modified) return result;
    await backoff(attempt);
  }
  throw new StateBusyError(`${storeName}/${key}: too many concurrent updates`);
}

export class BlobsState implements GateState {
  constructor(private readonly stores: Stores) {}

  async keyByHash(hash: string): Promise<KeyRecord | null> {
    // Strong consistency: a revocation takes effect with the next request, not a minute later.
    const store = getStore({ name: this.stores.keys, consistency: "strong" });
    const record = await store.get(`keys/${hash}`, { type: "json", consistency: "strong" });
    return record ? (record as KeyRecord) : null;
  }

  consume(keyId: string, day: string, limit: number): Promise<Consumed> {
    return compareAndSwap<Consumed>(this.stores.quota, `${day}/${keyId}`, (current) => {
      const used = current === null ? 0 : Number(current);
      // At the limit nothing is written: a refused request does not count (as in SQLite).
      if (used >= limit) return { next: null, result: { allowed: false, used } };
      return { next: String(used + 1), result: { allowed: true, used: used + 1 } };
    });
  }

  reserveBurst(address: string, nowMs: number, burst: number, windowMs: number): Promise<BurstResult> {
    return compareAndSwap<BurstResult>(this.stores.bursts, address, (current) => {
      const recent = (current === null ? [] : (JSON.parse(current) as number[])).filter((t) => t > nowMs - windowMs);
      if (recent.length >= burst) return { next: null, result: { allowed: false, freesAt: recent[0] + windowMs } };
      return { next: JSON.stringify([...recent, nowMs]), result: { allowed: true } };
    });
  }

  async storeRequest(request: AccessRequest): Promise<boolean> {
    // `onlyIfNew`: a colliding id never overwrites a stored request; the caller draws again.
    const store = getStore({ name: this.stores.requests, consistency: "strong" });
    const { modified } = await store.setJSON(request.id, request, { onlyIfNew: true });
    return modified;
  }
}
