import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { STORED_FILE_CHUNK_BYTES } from "@/db/queries/sets-storage";
import { documentChunks, setFiles } from "@/db/schema";
import type { SetFileView, SetSummary } from "@/lib/sets/types";
import * as contentRoute from "@/app/api/sets/[id]/files/[fileId]/content/route";
import * as filesRoute from "@/app/api/sets/[id]/files/route";
import * as setsRoute from "@/app/api/sets/route";
import { seedOrganization, testDatabases } from "../support/databases";
import { pdfOf } from "../support/streamed-form";
import { appRequest, callerOf, closeProcessDb, fileForm, openProcessDb, type Caller } from "./support";

/**
 * The viewer's file-content route streams a stored file from its chunks as
 * the browser reads it, never reading it whole first: a file of several
 * chunks comes back byte for byte with its length and headers, and the
 * route answers before its chunks are read (a chunk lost after the answer
 * breaks the body off, never other bytes). Another organization gets 404.
 * On main the route read the whole file first, and the lost chunk went unnoticed.
 */
const MAX_UPLOAD_MB = 8;
const FILE = pdfOf(5 * STORED_FILE_CHUNK_BYTES + 4321);

const params = <T>(value: T) => ({ params: Promise.resolve(value) });

describe.each(testDatabases())("GET /api/sets/{id}/files/{fileId}/content on $name", (database) => {
  let db: Db;
  let alice: Caller;
  let mallory: Caller;
  let set: SetSummary;

  beforeAll(async () => {
    // The stored file is what is read; no reader needs to analyse it.
    db = await openProcessDb(database, { MAX_UPLOAD_MB: String(MAX_UPLOAD_MB), ANALYSIS_IN_PROCESS_WORKER: "false" });
    alice = await callerOf(await seedOrganization(db, { role: "member", prefix: "content" }));
    mallory = await callerOf(await seedOrganization(db, { prefix: "content-other" }));
    const created = await setsRoute.POST(appRequest("/api/sets", { method: "POST", caller: alice, json: { name: "Streamed content" } }));
    set = (await created.json()) as SetSummary;
  });
  afterAll(closeProcessDb);

  async function upload(): Promise<SetFileView> {
    const response = await filesRoute.POST(appRequest(`/api/sets/${set.id}/files`, { method: "POST", caller: alice, body: fileForm(FILE, "large.pdf") }), params({ id: set.id }));
    expect(response.status).toBe(201);
    return (await response.json()) as SetFileView;
  }

  const get = (caller: Caller, fileId: string) =>
    contentRoute.GET(appRequest(`/api/sets/${set.id}/files/${fileId}/content`, { caller }), params({ id: set.id, fileId }));

  it("returns the exact bytes of a file of six chunks with its headers, answering before it reads them; another organization gets 404", { timeout: 120_000 }, async () => {
    const file = await upload();
    const response = await get(alice, file.id);
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "content-type": "application/pdf",
      "content-length": String(FILE.length),
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox",
      "content-disposition": "inline; filename*=UTF-8''large.pdf",
    });
    expect(Buffer.compare(Buffer.from(await response.arrayBuffer()), Buffer.from(FILE))).toBe(0);

    // Streamed, not read whole before the answer: a chunk lost after the answer breaks the body off, never other bytes.
    const streamed = await get(alice, file.id);
    expect(streamed.status).toBe(200);
    const [row] = await db.select({ storageKey: setFiles.storageKey }).from(setFiles).where(eq(setFiles.id, file.id));
    await db.delete(documentChunks).where(and(eq(documentChunks.storageKey, row!.storageKey), eq(documentChunks.chunkIndex, 5)));
    await expect(streamed.arrayBuffer()).rejects.toThrow();

    const other = await get(mallory, file.id);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ detail: "No such file in this set." });
  });
});
