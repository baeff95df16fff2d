import { describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import type { ApiKeyRecord } from "@/db/queries/api-keys";
import { forgetApiKey, lookUpMark, recallApiKey, rememberApiKey } from "./key-cache";

const record: ApiKeyRecord = {
  id: "key_one",
  organizationId: "org_one",
  kind: "production",
  name: null,
  start: "ss_live_abc",
  createdAt: new Date(0),
  expiresAt: null,
  revokedAt: null,
  lastUsedAt: null,
  createdBy: null,
};

describe("the API-key cache", () => {
  it("does not remember what a look-up read if the key was revoked in this process while it ran", () => {
    const db = {} as Db;
    const now = new Date();
    const mark = lookUpMark(db);
    // The look-up read the row; the revocation commits and forgets the key before the look-up remembers it.
    forgetApiKey(db, record.id);
    rememberApiKey(db, "digest", record, now, mark);
    expect(recallApiKey(db, "digest", now)).toBeUndefined();
    rememberApiKey(db, "digest", record, now, lookUpMark(db));
    expect(recallApiKey(db, "digest", now)).toBe(record);
    forgetApiKey(db, record.id);
    expect(recallApiKey(db, "digest", now)).toBeUndefined();
  });
});
