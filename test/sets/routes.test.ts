import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { analyses, documentChunks, setFiles, storedFiles } from "@/db/schema";
import type { SetFileView, SetSummary, SetView } from "@/lib/sets/types";
import * as setRoute from "@/app/api/sets/[id]/route";
import * as contentRoute from "@/app/api/sets/[id]/files/[fileId]/content/route";
import * as pageRoute from "@/app/api/sets/[id]/files/[fileId]/pages/[page]/route";
import * as filesRoute from "@/app/api/sets/[id]/files/route";
import * as splitsRoute from "@/app/api/sets/[id]/files/[fileId]/splits/route";
import * as setsRoute from "@/app/api/sets/route";
import { docx, makeDocx } from "../fixtures/formats/docx-fixtures";
import { encryptPdf } from "../support/api-fixtures";
import { seedOrganization, testDatabases } from "../support/databases";
import { renderPlantedPacket } from "./planted-packet";
import { appRequest, callerOf, closeProcessDb, fileForm, openProcessDb, settleAnalyses, type Caller } from "./support";

const MAX_UPLOAD_MB = 1;
const SIGN_IN = { detail: "Sign in to continue." };
const CROSS_SITE = { detail: "Cross-site request refused." };
const NO_SET = { detail: "No such document set." };
const NO_FILE = { detail: "No such file in this set." };

const params = <T>(value: T) => ({ params: Promise.resolve(value) });

async function json(response: Response): Promise<unknown> {
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return response.json();
}

describe.each(testDatabases())("set routes on $name", (database) => {
  let db: Db;
  let alice: Caller;
  let mallory: Caller;
  let packet: Awaited<ReturnType<typeof renderPlantedPacket>>;

  beforeAll(async () => {
    db = await openProcessDb(database, { MAX_UPLOAD_MB: String(MAX_UPLOAD_MB) });
    alice = await callerOf(await seedOrganization(db, { role: "member", prefix: "sets" }));
    mallory = await callerOf(await seedOrganization(db, { prefix: "sets-other" }));
    packet = await renderPlantedPacket(3, 1250);
  });
  afterAll(closeProcessDb);

  async function createSet(caller: Caller, name = "LC 4471 presentation", presentationDate?: string): Promise<SetSummary> {
    const response = await setsRoute.POST(appRequest("/api/sets", { method: "POST", caller, json: { name, presentationDate } }));
    expect(response.status).toBe(201);
    return (await response.json()) as SetSummary;
  }

  async function upload(caller: Caller, setId: string, bytes: Uint8Array, name: string): Promise<Response> {
    return filesRoute.POST(appRequest(`/api/sets/${setId}/files`, { method: "POST", caller, body: fileForm(bytes, name) }), params({ id: setId }));
  }

  async function getSet(caller: Caller, setId: string): Promise<Response> {
    return setRoute.GET(appRequest(`/api/sets/${setId}`, { caller }), params({ id: setId }));
  }

  it("refuses requests without a session (401) and cross-site mutations (403)", async () => {
    expect(await json(await setsRoute.GET(appRequest("/api/sets")))).toEqual(SIGN_IN);
    const anonymous = await setsRoute.POST(appRequest("/api/sets", { method: "POST", json: { name: "x" } }));
    expect(anonymous.status).toBe(401);
    const crossSite = await setsRoute.POST(appRequest("/api/sets", { method: "POST", caller: alice, json: { name: "x" }, crossSite: true }));
    expect(crossSite.status).toBe(403);
    expect(await json(crossSite)).toEqual(CROSS_SITE);
  });

  it("creates a set (201) and refuses bad input with 400/415", async () => {
    const set = await createSet(alice, "  Rice to Dubai  ", "2026-05-04");
    expect(set).toMatchObject({ name: "Rice to Dubai", presentationDate: "2026-05-04", fileCount: 0 });
    expect(set.id).toMatch(/^set_[0-9A-Za-z]+$/);
    const post = (json: unknown) => setsRoute.POST(appRequest("/api/sets", { method: "POST", caller: alice, json }));
    const noName = await post({ name: "   " });
    expect(noName.status).toBe(400);
    expect(await json(noName)).toEqual({ detail: "name: give the set a name" });
    expect(await json(await post({ name: "x", presentationDate: "2026-02-31" }))).toEqual({ detail: "presentationDate: is not a calendar date" });
    const text = await setsRoute.POST(appRequest("/api/sets", { method: "POST", caller: alice, body: "name=x", headers: { "content-type": "text/plain" } }));
    expect(text.status).toBe(415);
    expect(await json(text)).toEqual({ detail: "Send the request body as application/json." });
    // PostgreSQL's text cannot hold U+0000: refused where it arrives, not a 500 from the INSERT.
    const nul = await post({ name: "LC\u0000 4471" });
    expect(nul.status).toBe(400);
    expect(await json(nul)).toEqual({ detail: "The request body holds a NUL character (\\u0000), which no field accepts." });
  });

  it("lists only the caller's organization's sets", async () => {
    const mine = await createSet(alice, "Mine");
    const theirs = await createSet(mallory, "Theirs");
    const list = (await json(await setsRoute.GET(appRequest("/api/sets", { caller: alice })))) as { sets: SetSummary[] };
    const ids = list.sets.map((s) => s.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
  });

  it("uploads a packet, analyses it as a job and examines the set", { timeout: 180_000 }, async () => {
    const set = await createSet(alice, "Planted", "2030-01-01");
    const response = await upload(alice, set.id, packet.pdf, "packet.pdf");
    expect(response.status).toBe(201);
    const file = (await json(response)) as SetFileView;
    expect(file).toMatchObject({ fileName: "packet.pdf", format: "pdf", sizeBytes: packet.pdf.length, splits: [] });
    expect(["uploaded", "analyzing"]).toContain(file.status);
    await settleAnalyses(alice);

    const view = (await json(await getSet(alice, set.id))) as SetView;
    expect(view.settled).toBe(true);
    const [analysed] = view.files;
    expect(analysed).toMatchObject({ status: "done", pageCount: packet.pageCount, errorDetail: null });
    expect(analysed!.pageSizes).toHaveLength(packet.pageCount);
    const types = analysed!.splits.map((s) => s.split.document_type);
    expect(types).toContain("Commercial Invoice");
    expect(types).toContain("Certificate of Weight");
    expect(analysed!.splits.flatMap((s) => s.split.pages)).toEqual(Array.from({ length: packet.pageCount }, (_, i) => i + 1));
    const weight = analysed!.splits.find((s) => s.split.document_type === "Certificate of Weight")!;
    expect(weight.evidence?.gross_weight_kg?.page).toBe(weight.split.pages[0]);

    const examination = view.examination!;
    expect(examination.presentationDate).toBe("2030-01-01");
    expect(examination.matrix.columns).toHaveLength(analysed!.splits.length);
    const gross = examination.matrix.rows.find((r) => r.key === "gross_weight")!;
    expect(gross.status).toBe("mismatch");
    expect(gross.reason).toContain("Certificate of Weight");
    expect(examination.findings.some((f) => f.rule === "consistency.gross_weight")).toBe(true);
    expect(examination.tolerances.gross_weight).toMatchObject({ text: "±1 kg", absolute: 1 });
    // Row reasons name documents by their pages, never by internal ids.
    expect(examination.matrix.rows.map((r) => r.reason ?? "").join(" ")).not.toContain(file.id);

    const [row] = await db.select({ pageCount: analyses.pageCount }).from(analyses).where(eq(analyses.organizationId, alice.organizationId));
    expect(row?.pageCount).toBe(packet.pageCount);
  });

  it("keeps a file the engine cannot read as failed, with the reason", async () => {
    const set = await createSet(alice, "Locked");
    const locked = await encryptPdf(packet.pdf);
    expect((await upload(alice, set.id, locked, "locked.pdf")).status).toBe(201);
    await settleAnalyses(alice);
    const view = (await json(await getSet(alice, set.id))) as SetView;
    expect(view.files[0]).toMatchObject({ status: "failed", splits: [] });
    expect(view.files[0]!.errorDetail).toMatch(/password|encrypt/i);
    expect(view.examination).toBeNull();
  });

  it("refuses unknown formats (415), empty files (422) and oversized uploads (413)", async () => {
    const set = await createSet(alice, "Limits");
    const text = await upload(alice, set.id, new TextEncoder().encode("just some text"), "notes.txt");
    expect(text.status).toBe(415);
    expect(await json(text)).toEqual({
      detail: "The document is not a format we read; send a PDF, DOCX, EML, PNG, JPEG, TIFF or WebP document.",
    });
    const empty = await upload(alice, set.id, new Uint8Array(), "empty.pdf");
    expect(empty.status).toBe(422);
    expect(await json(empty)).toEqual({ detail: "The document is empty (0 bytes)." });
    const big = new Uint8Array(MAX_UPLOAD_MB * 2 ** 20 + 1).fill(0x20);
    big.set(new TextEncoder().encode("%PDF-1.7\n"));
    const tooLarge = await upload(alice, set.id, big, "big.pdf");
    expect(tooLarge.status).toBe(413);
    expect(await json(tooLarge)).toEqual({ detail: "The file is larger than the 1 MB limit." });
    const view = (await json(await getSet(alice, set.id))) as SetView;
    expect(view.files).toEqual([]);
  });

  it("serves the stored bytes to the set's organization only", async () => {
    const set = await createSet(alice, "Content");
    const file = (await (await upload(alice, set.id, packet.pdf, "packet.pdf")).json()) as SetFileView;
    const url = `/api/sets/${set.id}/files/${file.id}/content`;
    const ok = await contentRoute.GET(appRequest(url, { caller: alice }), params({ id: set.id, fileId: file.id }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("application/pdf");
    expect(ok.headers.get("x-content-type-options")).toBe("nosniff");
    // A document must not outlive the session in the browser's cache (shared computers, sign-out).
    expect(ok.headers.get("cache-control")).toBe("no-store");
    expect(new Uint8Array(await ok.arrayBuffer())).toEqual(packet.pdf);
    const other = await contentRoute.GET(appRequest(url, { caller: mallory }), params({ id: set.id, fileId: file.id }));
    expect(other.status).toBe(404);
    expect(await json(other)).toEqual(NO_FILE);
    await settleAnalyses(alice);
  });

  it("draws the pages of a Word file from their text for its organization only", async () => {
    const set = await createSet(alice, "Word");
    const word = makeDocx([docx.paragraph("PACKING LIST <No. 88>", { size: 16 }), docx.pageBreak(), docx.paragraph("Gross weight 1,250 KGS")]);
    const file = (await (await upload(alice, set.id, word, "packing.docx")).json()) as SetFileView;
    const sheet = (caller: Caller, page: string) =>
      pageRoute.GET(appRequest(`/api/sets/${set.id}/files/${file.id}/pages/${page}`, { caller }), params({ id: set.id, fileId: file.id, page }));

    await settleAnalyses(alice);
    const first = await sheet(alice, "1");
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(first.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(first.headers.get("cache-control")).toBe("no-store");
    const svg = await first.text();
    expect(svg).toContain(">PACKING LIST &lt;No. 88&gt;</text>");
    expect(svg).not.toContain("Gross weight");
    expect(await (await sheet(alice, "2")).text()).toContain(">Gross weight 1,250 KGS</text>");

    const missing = await sheet(alice, "3");
    expect(missing.status).toBe(404);
    expect(await json(missing)).toEqual({ detail: "The file has no page 3." });
    const malformed = await sheet(alice, "0x1");
    expect(malformed.status).toBe(400);
    expect(await json(malformed)).toEqual({ detail: "The page must be a page number from 1." });
    const other = await sheet(mallory, "1");
    expect(other.status).toBe(404);
    expect(await json(other)).toEqual(NO_FILE);
  });

  it("answers 404 to another organization on every set route", async () => {
    const set = await createSet(alice, "Private");
    const file = (await (await upload(alice, set.id, packet.pdf, "packet.pdf")).json()) as SetFileView;
    await settleAnalyses(alice);
    const ids = { id: set.id, fileId: file.id };
    const base = `/api/sets/${set.id}`;
    expect(await json(await getSet(mallory, set.id))).toEqual(NO_SET);
    expect(await json(await upload(mallory, set.id, packet.pdf, "intruder.pdf"))).toEqual(NO_SET);
    const patch = await splitsRoute.PATCH(
      appRequest(`${base}/files/${file.id}/splits`, { method: "PATCH", caller: mallory, json: { action: "reset" } }),
      params(ids),
    );
    expect(patch.status).toBe(404);
    expect(await json(patch)).toEqual(NO_FILE);
    const del = await setRoute.DELETE(appRequest(base, { method: "DELETE", caller: mallory }), params({ id: set.id }));
    expect(del.status).toBe(404);
    expect(await json(del)).toEqual(NO_SET);
    const view = (await json(await getSet(alice, set.id))) as SetView;
    expect(view.files.map((f) => f.fileName)).toEqual(["packet.pdf"]);
  });

  it("keeps split corrections, re-extracts the corrected splits and uses them in the comparison", async () => {
    const set = await createSet(alice, "Corrections", "2030-01-01");
    const file = (await (await upload(alice, set.id, packet.pdf, "packet.pdf")).json()) as SetFileView;
    await settleAnalyses(alice);
    const ids = { id: set.id, fileId: file.id };
    const correct = (body: unknown) =>
      splitsRoute.PATCH(appRequest(`/api/sets/${set.id}/files/${file.id}/splits`, { method: "PATCH", caller: alice, json: body }), params(ids));
    const before = ((await json(await getSet(alice, set.id))) as SetView).files[0]!.splits;
    const weightIndex = before.findIndex((s) => s.split.document_type === "Certificate of Weight");

    // The certificate of weight called "Other": its fields go, and with them the gross-weight mismatch.
    const retyped = await correct({ action: "retype", splitIndex: weightIndex, documentType: "other" });
    expect(retyped.status).toBe(200);
    const view = (await json(await getSet(alice, set.id))) as SetView;
    const after = view.files[0]!;
    expect(after.splits[weightIndex]).toMatchObject({ split: { document_type: "Other", pages: before[weightIndex]!.split.pages }, extracted: {} });
    expect(after.corrections).toMatchObject([{ action: "retype", splitIndex: weightIndex, documentType: "other" }]);
    expect(view.examination!.matrix.rows.find((r) => r.key === "gross_weight")!.status).not.toBe("mismatch");

    // Start a new document on the second page of a two-page split, then merge it back.
    const twoPage = after.splits.findIndex((s) => s.split.pages.length > 1);
    const second = after.splits[twoPage]!.split.pages[1]!;
    const split = (await json(await correct({ action: "split", page: second }))) as { splits: typeof before };
    expect(split.splits).toHaveLength(before.length + 1);
    expect(split.splits[twoPage + 1]!.split.pages[0]).toBe(second);
    const merged = (await json(await correct({ action: "merge", splitIndex: twoPage + 1 }))) as { splits: typeof before };
    expect(merged.splits.map((s) => s.split.pages)).toEqual(before.map((s) => s.split.pages));

    const refused = await correct({ action: "split", page: 1 });
    expect(refused.status).toBe(400);
    expect(await json(refused)).toEqual({ detail: "Page 1 already starts a document." });
    expect((await correct({ action: "retype", splitIndex: 0, documentType: "passport" })).status).toBe(400);

    const reset = (await json(await correct({ action: "reset" }))) as { splits: typeof before };
    expect(reset.splits).toEqual(before);
    const final = ((await json(await getSet(alice, set.id))) as SetView).files[0]!;
    expect(final.corrections.map((c) => c.action)).toEqual(["retype", "split", "merge", "reset"]);
    expect(final.splits).toEqual(before);
  });

  it("deletes a set with its files and stored bytes (204), then 404", async () => {
    const set = await createSet(alice, "To delete");
    const file = (await (await upload(alice, set.id, packet.pdf, "packet.pdf")).json()) as SetFileView;
    await settleAnalyses(alice);
    const blobsOf = async () =>
      (await db.select({ key: storedFiles.storageKey }).from(storedFiles).where(eq(storedFiles.organizationId, alice.organizationId))).length;
    const analysesOf = async () => (await db.select({ id: analyses.id }).from(analyses).where(eq(analyses.organizationId, alice.organizationId))).length;
    const chunksOf = async () =>
      (await db.select({ key: documentChunks.storageKey }).from(documentChunks).where(eq(documentChunks.organizationId, alice.organizationId))).length;
    const [stored] = await db.select({ storageKey: setFiles.storageKey }).from(setFiles).where(eq(setFiles.id, file.id));
    const fileChunks = (await db.select({ index: documentChunks.chunkIndex }).from(documentChunks).where(eq(documentChunks.storageKey, stored!.storageKey))).length;
    expect(fileChunks).toBeGreaterThan(0);
    const [blobsBefore, analysesBefore, chunksBefore] = [await blobsOf(), await analysesOf(), await chunksOf()];
    const del = await setRoute.DELETE(appRequest(`/api/sets/${set.id}`, { method: "DELETE", caller: alice }), params({ id: set.id }));
    expect(del.status).toBe(204);
    expect((await getSet(alice, set.id)).status).toBe(404);
    const content = await contentRoute.GET(appRequest(`/api/sets/${set.id}/files/${file.id}/content`, { caller: alice }), params({ id: set.id, fileId: file.id }));
    expect(content.status).toBe(404);
    // Exactly this set's file and analysis go; the organization's other sets keep theirs.
    expect(await blobsOf()).toBe(blobsBefore - 1);
    // Its chunks go with its stored file.
    expect(await chunksOf()).toBe(chunksBefore - fileChunks);
    expect(await analysesOf()).toBe(analysesBefore - 1);
    const again = await setRoute.DELETE(appRequest(`/api/sets/${set.id}`, { method: "DELETE", caller: alice }), params({ id: set.id }));
    expect(again.status).toBe(404);
  });
});
