/**
 * The checker's workflow through the real set routes on both databases: a
 * value corrected beside its evidence changes the comparison and findings at
 * once, is kept with who and when and can be put back; a document is marked
 * reviewed; findings are accepted or waived with a note, which sets the
 * presentation's status and lands in the set's audit trail.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { auditEvents, setFiles } from "@/db/schema";
import { analysisStatusRequest } from "@/lib/api/analysis-status";
import { withApiKey } from "@/lib/api/handler";
import { createApiKey } from "@/lib/services/create-api-key";
import { OPERATOR } from "@/lib/services/operator";
import ExcelJS from "exceljs";
import * as decisionsRoute from "@/app/api/sets/[id]/decisions/route";
import * as exportRoute from "@/app/api/sets/[id]/export/route";
import * as fieldsRoute from "@/app/api/sets/[id]/files/[fileId]/fields/route";
import * as reviewsRoute from "@/app/api/sets/[id]/files/[fileId]/reviews/route";
import * as filesRoute from "@/app/api/sets/[id]/files/route";
import * as setRoute from "@/app/api/sets/[id]/route";
import * as setsRoute from "@/app/api/sets/route";
import { DOCUMENT_TYPES, idOfLabel } from "@/lib/analysis";
import type { SetSummary, SetView } from "@/lib/sets/types";
import { pageTexts } from "../fixtures/generator/printed-text";
import { seedOrganization, testDatabases } from "../support/databases";
import { renderPlantedPacket, type PlantedPacket } from "./planted-packet";
import { appRequest, callerOf, closeProcessDb, fileForm, openProcessDb, settleAnalyses, type Caller } from "./support";

const params = <T>(value: T) => ({ params: Promise.resolve(value) });
/** A credit, an invoice, a B/L and the certificate of weight whose gross weight is 1,250 kg off. */
const TYPES = ["letter_of_credit", "commercial_invoice", "bill_of_lading", "certificate_of_weight"] as const;

describe.each(testDatabases())("the checker's workflow on $name", (database) => {
  let db: Db;
  let alice: Caller;
  let aliceEmail: string;
  let mallory: Caller;
  let packet: PlantedPacket;
  let setId: string;
  let fileId: string;
  let weightIndex: number;

  async function view(caller: Caller = alice): Promise<SetView> {
    const response = await setRoute.GET(appRequest(`/api/sets/${setId}`, { caller }), params({ id: setId }));
    expect(response.status).toBe(200);
    return (await response.json()) as SetView;
  }

  const correct = (json: unknown, caller: Caller = alice) =>
    fieldsRoute.PUT(appRequest(`/api/sets/${setId}/files/${fileId}/fields`, { method: "PUT", caller, json }), params({ id: setId, fileId }));
  const review = (json: unknown, caller: Caller = alice) =>
    reviewsRoute.PUT(appRequest(`/api/sets/${setId}/files/${fileId}/reviews`, { method: "PUT", caller, json }), params({ id: setId, fileId }));
  const decide = (json: unknown, caller: Caller = alice) =>
    decisionsRoute.POST(appRequest(`/api/sets/${setId}/decisions`, { method: "POST", caller, json }), params({ id: setId }));

  beforeAll(async () => {
    db = await openProcessDb(database);
    const created = await seedOrganization(db, { role: "member", prefix: "checker" });
    aliceEmail = created.user.email;
    alice = await callerOf(created);
    mallory = await callerOf(await seedOrganization(db, { prefix: "checker-other" }));
    packet = await renderPlantedPacket(3, 1250, TYPES);
    const created201 = await setsRoute.POST(appRequest("/api/sets", { method: "POST", caller: alice, json: { name: "Checker", presentationDate: packet.presentationDate } }));
    setId = ((await created201.json()) as SetSummary).id;
    const uploaded = await filesRoute.POST(appRequest(`/api/sets/${setId}/files`, { method: "POST", caller: alice, body: fileForm(packet.pdf, "packet.pdf") }), params({ id: setId }));
    expect(uploaded.status).toBe(201);
    fileId = ((await uploaded.json()) as { id: string }).id;
    await settleAnalyses(alice);
    weightIndex = (await view()).files[0]!.splits.findIndex((s) => s.split.document_type === "Certificate of Weight");
    expect(weightIndex).toBeGreaterThanOrEqual(0);
  }, 180_000);
  afterAll(closeProcessDb);

  const grossRow = (v: SetView) => v.examination!.matrix.rows.find((r) => r.key === "gross_weight")!;
  const weightFinding = (v: SetView) => v.examination!.findings.find((f) => f.rule === "consistency.gross_weight");

  it("recomputes the comparison and findings from a corrected value, keeps who and when, and puts the engine's value back", async () => {
    const before = await view();
    expect(grossRow(before).status).toBe("mismatch");
    expect(weightFinding(before)).toBeDefined();
    expect(before.status).toBe("pending");
    // The certificate prints its weight rounded: what the engine read is the planted weight, give or take that.
    const read = before.files[0]!.splits[weightIndex]!.extracted.gross_weight_kg as number;
    expect(Math.abs(read - packet.plantedGrossKg)).toBeLessThan(1);

    const response = await correct({ splitIndex: weightIndex, field: "gross_weight_kg", value: `${packet.grossKg}` });
    expect(response.status).toBe(200);
    const after = (await response.json()) as SetView;
    const file = after.files[0]!;
    expect(file.splits[weightIndex]!.extracted.gross_weight_kg).toBe(packet.grossKg);
    // A person read it: full confidence, at the place the engine read it.
    expect(file.splits[weightIndex]!.evidence?.gross_weight_kg).toMatchObject({ confidence: 1, page: before.files[0]!.splits[weightIndex]!.evidence!.gross_weight_kg!.page });
    expect(file.fieldCorrections).toEqual([
      { splitIndex: weightIndex, field: "gross_weight_kg", value: packet.grossKg, original: read, correctedBy: aliceEmail, correctedAt: expect.any(String) },
    ]);
    expect(grossRow(after).status).not.toBe("mismatch");
    expect(weightFinding(after)).toBeUndefined();
    // The next read of the set agrees: the correction is stored, not only answered.
    expect(grossRow(await view()).status).toBe(grossRow(after).status);

    // The public API's getAnalysis of the file answers with the corrected value and says it was corrected.
    const { key } = await createApiKey(db, { createdBy: OPERATOR, organizationId: alice.organizationId, kind: "production" });
    const analysisId = (await db.select({ id: setFiles.analysisId }).from(setFiles).where(eq(setFiles.id, fileId)))[0]!.id!;
    const api = await withApiKey(analysisStatusRequest(analysisId), { openDb: async () => db })(
      new Request(`http://api.test/v1/analyses/${analysisId}`, { headers: { "x-api-key": key } }),
    );
    expect(api.status).toBe(200);
    const body = (await api.json()) as { status: string; result: SetView["files"][0]["splits"]; corrections: unknown[] };
    expect(body.status).toBe("done");
    expect(body.result[weightIndex]!.extracted.gross_weight_kg).toBe(packet.grossKg);
    expect(body.corrections).toEqual([
      { split: weightIndex, field: "gross_weight_kg", value: packet.grossKg, original: read, corrected_by: aliceEmail, corrected_at: expect.any(String) },
    ]);

    const restored = (await (await correct({ splitIndex: weightIndex, field: "gross_weight_kg", value: null })).json()) as SetView;
    expect(restored.files[0]!.fieldCorrections).toEqual([]);
    expect(restored.files[0]!.splits[weightIndex]!.extracted.gross_weight_kg).toBe(read);
    expect(grossRow(restored).status).toBe("mismatch");
    const events = await db.select().from(auditEvents).where(and(eq(auditEvents.organizationId, alice.organizationId), eq(auditEvents.target, setId)));
    expect(events.map((e) => e.action)).toEqual(expect.arrayContaining(["document_set.value_corrected", "document_set.value_restored"]));
  });

  it("adds a value the engine did not read, typed by its field", async () => {
    const v = await view();
    // Typed as the field's kind says: text trimmed, figures with separators as numbers, dates as they are.
    const typed: Record<string, [string, unknown]> = { string: ["  W-99  ", "W-99"], number: ["1,234.5", 1234.5], date: ["2030-01-02", "2030-01-02"] };
    const candidates = v.files[0]!.splits.flatMap((split, splitIndex) => {
      const type = idOfLabel(split.split.document_type)!;
      const fields = DOCUMENT_TYPES[type].fields as Record<string, unknown>;
      return Object.keys(fields)
        .filter((key) => typeof fields[key] === "string" && fields[key] !== "string[]" && !(key in split.extracted))
        .map((field) => ({ splitIndex, field, kind: fields[field] as string }));
    });
    expect(candidates.length).toBeGreaterThan(0);
    const { splitIndex, field, kind } = candidates[0]!;
    const [input, stored] = typed[kind]!;
    const added = (await (await correct({ splitIndex, field, value: input })).json()) as SetView;
    expect(added.files[0]!.splits[splitIndex]!.extracted[field]).toBe(stored);
    expect(added.files[0]!.fieldCorrections).toMatchObject([{ splitIndex, field, value: stored, original: null }]);
    await correct({ splitIndex, field, value: null });
  });

  it("refuses values that do not fit their field (400), other organizations (404) and cross-site requests (403)", async () => {
    const refusal = async (json: unknown) => {
      const response = await correct(json);
      expect(response.status).toBe(400);
      return response.json();
    };
    expect(await refusal({ splitIndex: weightIndex, field: "invoice_number", value: "X" })).toEqual({ detail: "field: a Certificate of Weight has no field invoice_number." });
    expect(await refusal({ splitIndex: weightIndex, field: "gross_weight_kg", value: "heavy" })).toEqual({ detail: "value: gross_weight_kg is a number, such as 49080.5." });
    expect(await refusal({ splitIndex: weightIndex, field: "date_of_issue", value: "2026-02-31" })).toEqual({ detail: "value: date_of_issue is a date written YYYY-MM-DD." });
    expect(await refusal({ splitIndex: 99, field: "gross_weight_kg", value: 1 })).toEqual({ detail: "splitIndex: there is no document 100; the file has 4." });
    expect(await refusal({ splitIndex: weightIndex, field: "gross_weight_kg", value: null })).toEqual({ detail: "value: give gross_weight_kg a value." });
    const other = await correct({ splitIndex: weightIndex, field: "gross_weight_kg", value: 1 }, mallory);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ detail: "No such document set." });
    expect((await decide({ findingKey: "x", decision: "accept" }, mallory)).status).toBe(404);
    expect((await review({ splitIndex: weightIndex, reviewed: true }, mallory)).status).toBe(404);
    const crossSite = await fieldsRoute.PUT(
      appRequest(`/api/sets/${setId}/files/${fileId}/fields`, { method: "PUT", caller: alice, json: { splitIndex: 0, field: "x", value: 1 }, crossSite: true }),
      params({ id: setId, fileId }),
    );
    expect(crossSite.status).toBe(403);
  });

  it("marks a document reviewed and withdraws the mark", async () => {
    const marked = (await (await review({ splitIndex: weightIndex, reviewed: true })).json()) as SetView;
    expect(marked.files[0]!.reviews).toEqual([{ splitIndex: weightIndex, reviewedBy: aliceEmail, reviewedAt: expect.any(String) }]);
    const withdrawn = (await (await review({ splitIndex: weightIndex, reviewed: false })).json()) as SetView;
    expect(withdrawn.files[0]!.reviews).toEqual([]);
    const bad = await review({ splitIndex: weightIndex, reviewed: "yes" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ detail: "reviewed: true or false" });
  });

  it("waives a finding only with a note, accepts another, derives the status and audits each decision", async () => {
    const v = await view();
    const open = v.examination!.findings.filter((f) => f.severity !== "info");
    expect(open.length).toBeGreaterThan(0);
    const target = weightFinding(v)!;

    const noNote = await decide({ findingKey: target.key, decision: "waive", note: "  " });
    expect(noNote.status).toBe(400);
    expect(await noNote.json()).toEqual({ detail: "note: say why the finding is waived" });
    const unknown = await decide({ findingKey: "no.such|rule|x", decision: "accept" });
    expect(unknown.status).toBe(409);
    expect(await unknown.json()).toEqual({ detail: "The set's examination has no such finding any more; reload the set." });

    // Every open finding has its own key: a decision on one never decides another.
    expect(new Set(open.map((f) => f.key)).size).toBe(open.length);
    let after = v;
    for (const finding of open) {
      const response = await decide({ findingKey: finding.key, decision: "waive", note: `Checked with the applicant: ${finding.rule}` });
      expect(response.status).toBe(200);
      after = (await response.json()) as SetView;
    }
    expect(after.status).toBe("compliant");
    expect(after.examination!.findings.filter((f) => f.decision?.decision === "waive")).toHaveLength(open.length);
    expect(weightFinding(after)!.decision).toMatchObject({ decision: "waive", note: `Checked with the applicant: ${target.rule}`, decidedBy: aliceEmail });

    after = (await (await decide({ findingKey: target.key, decision: "accept" })).json()) as SetView;
    expect(after.status).toBe("discrepant");
    after = (await (await decide({ findingKey: target.key, decision: "reopen" })).json()) as SetView;
    expect(after.status).toBe("pending");
    expect(weightFinding(after)!.decision).toBeNull();
    expect(after.decisions.filter((d) => d.findingKey === target.key).map((d) => d.decision)).toEqual(["waive", "accept", "reopen"]);
    const waived = after.history.find((h) => h.action === "document_set.finding_waived" && h.detail.rule === target.rule);
    expect(waived).toMatchObject({ actor: aliceEmail, detail: { note: `Checked with the applicant: ${target.rule}` } });
    expect(after.history[0]!.action).toBe("document_set.finding_reopened");
  });

  const exportOf = (format: string, caller: Caller = alice, id = setId) =>
    exportRoute.GET(appRequest(`/api/sets/${id}/export?format=${format}`, { caller }), params({ id }));

  it("exports the discrepancy report (PDF) and the comparison (XLSX, CSV) from the values and decisions in force", async () => {
    const pdf = await exportOf("pdf");
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toBe('attachment; filename="checker-discrepancy-report.pdf"');
    expect(pdf.headers.get("cache-control")).toBe("no-store");
    // pdfjs returns the label and the value of a line as separate items: compare with spacing squeezed.
    const text = (await pageTexts(new Uint8Array(await pdf.arrayBuffer()))).join(" ").replace(/\s+/g, " ");
    const v = await view();
    expect(text).toContain("Discrepancy report");
    expect(text).toContain(`Examined as of ${packet.presentationDate}`);
    expect(text).toContain(`Report produced`);
    expect(text).toContain(aliceEmail);
    for (const finding of v.examination!.findings) expect(text).toContain(finding.reference);
    expect(text).toContain("Credit terms examined");
    expect(text).toMatch(/L\/C number \S+/);

    const xlsx = await exportOf("xlsx");
    expect(xlsx.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    const matrix = workbook.getWorksheet("Comparison")!;
    const columns = v.examination!.matrix.columns.length;
    expect(matrix.getRow(1).cellCount).toBe(3 + columns);
    const gross = matrix.getRows(2, matrix.rowCount - 1)!.find((r) => String(r.getCell(1).value).startsWith("Gross weight"))!;
    // The engine's weight is back in force (the first test put it back): the planted mismatch is in the workbook.
    expect(grossRow(v).status).toBe("mismatch");
    expect(gross.getCell(2).value).toBe("Mismatch");
    expect(workbook.getWorksheet("Findings")!.rowCount).toBe(1 + v.examination!.findings.length);

    const csv = await (await exportOf("csv")).text();
    const rows = csv.split("\r\n");
    expect(rows[0]!.startsWith("Fact,Status,Reason,")).toBe(true);
    expect(rows.some((r) => r.startsWith("Gross weight"))).toBe(true);
  });

  it("refuses an unknown export format (400), another organization (404) and a set with nothing examined (409)", async () => {
    const bad = await exportOf("docx");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ detail: "format: one of pdf, xlsx, csv." });
    const other = await exportOf("pdf", mallory);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ detail: "No such document set." });
    const empty = (await (await setsRoute.POST(appRequest("/api/sets", { method: "POST", caller: alice, json: { name: "Empty" } }))).json()) as SetSummary;
    const nothing = await exportOf("pdf", alice, empty.id);
    expect(nothing.status).toBe(409);
    expect(await nothing.json()).toEqual({ detail: "The set has no analysed document to report on; add the presentation's files first." });
  });
});
