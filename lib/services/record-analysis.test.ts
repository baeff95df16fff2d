import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { findAnalysis, listAnalyses } from "@/db/queries/analyses";
import { seedOrganization, testDatabases } from "@/test/support/databases";
import { createApiKey } from "./create-api-key";
import type { CreatedUser } from "./create-user";
import { OPERATOR } from "./operator";
import { recordAnalysis } from "./record-analysis";

describe.each(testDatabases())("recordAnalysis on $name", (database) => {
  let db: Db;
  let org: CreatedUser;
  let other: CreatedUser;
  beforeAll(async () => {
    db = await database.open();
    org = await seedOrganization(db, { prefix: "analyses" });
    other = await seedOrganization(db, { prefix: "analyses-other" });
  });
  afterAll(() => database.close(db));

  const bytes = Buffer.from("%PDF-1.7 generated for this test");
  const result = [{ split: { document_type: "Commercial Invoice", pages: [1] }, extracted: { invoice_number: "INV-1" } }];

  it("stores the input's size, hash, page count, result and timing for the organization", async () => {
    const { record: key } = await createApiKey(db, { createdBy: OPERATOR, organizationId: org.organization.id, kind: "sandbox" });
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const saved = await recordAnalysis(db, {
      organizationId: org.organization.id,
      apiKeyId: key.id,
      inputName: "presentation.pdf",
      inputBytes: bytes.length,
      sha256,
      pageCount: 1,
      result,
      durationMs: 12,
    });
    expect(saved.id).toMatch(/^ana_[0-9A-Za-z]{22}$/);
    const row = await findAnalysis(db, { organizationId: org.organization.id, analysisId: saved.id });
    expect(row).toMatchObject({
      apiKeyId: key.id,
      userId: null,
      inputName: "presentation.pdf",
      inputBytes: bytes.length,
      sha256,
      pageCount: 1,
      result,
      durationMs: 12,
      createdAt: saved.createdAt,
    });
  });

  it("keeps analyses inside their organization", async () => {
    const saved = await recordAnalysis(db, {
      organizationId: org.organization.id,
      inputBytes: 1,
      sha256: "0".repeat(64),
      pageCount: 0,
      result: [],
      durationMs: 0,
    });
    expect(await findAnalysis(db, { organizationId: other.organization.id, analysisId: saved.id })).toBeUndefined();
    expect((await listAnalyses(db, { organizationId: other.organization.id })).map((a) => a.id)).not.toContain(saved.id);
    expect((await listAnalyses(db, { organizationId: org.organization.id })).map((a) => a.id)).toContain(saved.id);
  });

  it("rejects a malformed hash, negative counts and a missing result", async () => {
    const valid = { organizationId: org.organization.id, inputBytes: 1, sha256: "a".repeat(64), pageCount: 1, result: [], durationMs: 1 };
    await expect(recordAnalysis(db, { ...valid, sha256: "A".repeat(64) })).rejects.toMatchObject({ code: "invalid_input" });
    await expect(recordAnalysis(db, { ...valid, pageCount: -1 })).rejects.toMatchObject({ code: "invalid_input" });
    await expect(recordAnalysis(db, { ...valid, durationMs: 1.5 })).rejects.toMatchObject({ code: "invalid_input" });
    await expect(recordAnalysis(db, { ...valid, result: undefined })).rejects.toMatchObject({ code: "invalid_input" });
  });
});
