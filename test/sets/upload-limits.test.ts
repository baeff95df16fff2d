import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { documentChunks, storedFiles } from "@/db/schema";
import type { SetSummary } from "@/lib/sets/types";
import * as filesRoute from "@/app/api/sets/[id]/files/route";
import * as setsRoute from "@/app/api/sets/route";
import { createUser, OPERATOR } from "@/lib/services";
import { invoicePages, makePdf } from "../support/api-fixtures";
import { seedOrganization, TEST_PASSWORD, testDatabases } from "../support/databases";
import { appRequest, callerOf, closeProcessDb, fileForm, openProcessDb, settleAnalyses, type Caller } from "./support";

/**
 * Web uploads have their own limits: files per minute per person and per
 * organization (429 with Retry-After), and the bytes an organization may keep
 * (413), decided one upload at a time so that two at once cannot both take
 * its last free space.
 */
const LIMITS = { UPLOAD_RATE_LIMIT_USER: "2", UPLOAD_RATE_LIMIT_ORGANIZATION: "3", STORAGE_QUOTA_MB: "1" };
const params = <T>(value: T) => ({ params: Promise.resolve(value) });

describe.each(testDatabases())("web upload limits on $name", (database) => {
  let db: Db;
  let pdf: Uint8Array;

  beforeAll(async () => {
    db = await openProcessDb(database, LIMITS);
    pdf = await makePdf(invoicePages());
  });
  afterAll(closeProcessDb);

  async function createSet(caller: Caller): Promise<SetSummary> {
    const response = await setsRoute.POST(appRequest("/api/sets", { method: "POST", caller, json: { name: "LC 7 presentation" } }));
    expect(response.status).toBe(201);
    return (await response.json()) as SetSummary;
  }

  function upload(caller: Caller, setId: string, bytes: Uint8Array, name = "invoice.pdf"): Promise<Response> {
    return filesRoute.POST(appRequest(`/api/sets/${setId}/files`, { method: "POST", caller, body: fileForm(bytes, name) }), params({ id: setId }));
  }

  it("429 with Retry-After beyond a person's uploads per minute, then beyond the organization's", async () => {
    const alice = await seedOrganization(db, { role: "member", prefix: "uploads" });
    const bob = await createUser(db, { actor: OPERATOR, email: `bob-${alice.organization.slug}@example.test`, password: TEST_PASSWORD, orgSlug: alice.organization.slug, role: "member" });
    const [aliceCaller, bobCaller] = [await callerOf(alice), await callerOf(bob)];
    const set = await createSet(aliceCaller);

    expect((await upload(aliceCaller, set.id, pdf)).status).toBe(201);
    expect((await upload(aliceCaller, set.id, pdf)).status).toBe(201);
    const person = await upload(aliceCaller, set.id, pdf);
    expect(person.status).toBe(429);
    expect(await person.json()).toEqual({ detail: expect.stringMatching(/^Too many uploads: you may upload 2 files per minute; retry after \d+ s\.$/) });
    expect(Number(person.headers.get("retry-after"))).toBeGreaterThan(0);

    // Bob has his own two, but the organization only one more.
    expect((await upload(bobCaller, set.id, pdf)).status).toBe(201);
    const organization = await upload(bobCaller, set.id, pdf);
    expect(organization.status).toBe(429);
    expect(await organization.json()).toEqual({
      detail: expect.stringMatching(/^Too many uploads: your organization may upload 3 files per minute; retry after \d+ s\.$/),
    });
    await settleAnalyses(aliceCaller);
  });

  it("413 beyond the organization's storage quota, and two uploads at once cannot both take its last free space", async () => {
    const carol = await callerOf(await seedOrganization(db, { role: "member", prefix: "quota" }));
    const set = await createSet(carol);
    // Two files of 0.6 MB each: either fits the 1 MB quota, both do not.
    const large = new Uint8Array(Buffer.concat([Buffer.from(pdf), Buffer.alloc(600 * 1024, 0x20)]));
    const answers = await Promise.all([upload(carol, set.id, large, "a.pdf"), upload(carol, set.id, large, "b.pdf")]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 413]);
    const refused = answers.find((answer) => answer.status === 413)!;
    expect(await refused.json()).toEqual({
      detail: "Your organization's storage quota of 1 MB is full (0.6 MB used); delete sets you no longer need, or ask the operator for more.",
    });
    // The refused file had streamed into storage before its transaction refused it: nothing of it is left.
    const files = await db.select({ storageKey: storedFiles.storageKey }).from(storedFiles).where(eq(storedFiles.organizationId, carol.organizationId));
    const chunks = await db.select({ storageKey: documentChunks.storageKey }).from(documentChunks).where(eq(documentChunks.organizationId, carol.organizationId));
    expect(files.length).toBe(1);
    expect(new Set(chunks.map((chunk) => chunk.storageKey))).toEqual(new Set([files[0]!.storageKey]));
    await settleAnalyses(carol);
  });
});
