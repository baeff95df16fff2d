/**
 * Teaching a layout once, through the real routes on both databases: a
 * checker corrects a value on one invoice; the next invoice of that issuer and
 * layout uploaded by the organization reads the value where it was taught
 * (evidence says so, and where from); another organization's upload of the
 * same invoice does not; undoing the correction forgets the field; an admin
 * lists and forgets the layout (audited), and a member cannot.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { auditEvents, learnedLayouts } from "@/db/schema";
import * as layoutRoute from "@/app/api/admin/layouts/[id]/route";
import * as layoutsRoute from "@/app/api/admin/layouts/route";
import * as fieldsRoute from "@/app/api/sets/[id]/files/[fileId]/fields/route";
import * as filesRoute from "@/app/api/sets/[id]/files/route";
import * as setRoute from "@/app/api/sets/[id]/route";
import * as setsRoute from "@/app/api/sets/route";
import { createUser, OPERATOR, type LearnedLayoutSummary } from "@/lib/services";
import type { SetSummary, SetView } from "@/lib/sets/types";
import { familiesOf, generateSameLayoutDocument } from "../fixtures/generator/families/index";
import type { Fixture } from "../fixtures/generator/packet";
import { seedOrganization, testDatabases } from "../support/databases";
import { appRequest, callerOf, closeProcessDb, fileForm, openProcessDb, settleAnalyses, type Caller } from "./support";

const params = <T>(value: T) => ({ params: Promise.resolve(value) });
const LABEL_ABOVE = familiesOf("development").find((f) => f.name === "label-above")!;
/** One template (layout seed) of an invoice, and the values of two shipments by the same seller. */
const TEMPLATE = 91_037;

describe.each(testDatabases())("teaching a layout on $name", (database) => {
  let db: Db;
  let admin: Caller;
  let checker: Caller;
  let stranger: Caller;
  let first: Fixture;
  let second: Fixture;
  let field: string;

  async function newSet(caller: Caller, name: string): Promise<string> {
    const response = await setsRoute.POST(appRequest("/api/sets", { method: "POST", caller, json: { name } }));
    return ((await response.json()) as SetSummary).id;
  }
  async function upload(caller: Caller, setId: string, fixture: Fixture, fileName: string): Promise<string> {
    const response = await filesRoute.POST(appRequest(`/api/sets/${setId}/files`, { method: "POST", caller, body: fileForm(fixture.pdf, fileName) }), params({ id: setId }));
    expect(response.status).toBe(201);
    await settleAnalyses(caller);
    return ((await response.json()) as { id: string }).id;
  }
  async function fileView(caller: Caller, setId: string, fileId: string) {
    const response = await setRoute.GET(appRequest(`/api/sets/${setId}`, { caller }), params({ id: setId }));
    return ((await response.json()) as SetView).files.find((f) => f.id === fileId)!;
  }
  const correct = (caller: Caller, setId: string, fileId: string, value: unknown) =>
    fieldsRoute.PUT(appRequest(`/api/sets/${setId}/files/${fileId}/fields`, { method: "PUT", caller, json: { splitIndex: 0, field, value } }), params({ id: setId, fileId }));

  beforeAll(async () => {
    db = await openProcessDb(database);
    const created = await seedOrganization(db, { role: "admin", prefix: "teach" });
    admin = await callerOf(created);
    checker = await callerOf(await createUser(db, { actor: OPERATOR, email: `checker-${created.organization.slug}@example.test`, password: "correct-horse-battery-staple", orgSlug: created.organization.slug, role: "member" }));
    stranger = await callerOf(await seedOrganization(db, { prefix: "teach-other" }));
    first = await generateSameLayoutDocument("commercial_invoice", TEMPLATE, TEMPLATE, LABEL_ABOVE);
    second = await generateSameLayoutDocument("commercial_invoice", TEMPLATE, TEMPLATE + 500, LABEL_ABOVE);
  }, 60_000);
  afterAll(closeProcessDb);

  it("reads the next invoice of the layout where the value was taught, for this organization only; undo forgets it", { timeout: 180_000 }, async () => {
    const setId = await newSet(checker, "LC 1 — teach");
    const firstId = await upload(checker, setId, first, "invoice-a.pdf");
    const read = (await fileView(checker, setId, firstId)).splits[0]!;
    const expected = first.expected[0]!.extracted;
    // A field the engine reads wrong on this layout, whose value differs on the second invoice.
    field = Object.keys(expected).find((f) => JSON.stringify(read.extracted[f]) !== JSON.stringify(expected[f]) && JSON.stringify(expected[f]) !== JSON.stringify(second.expected[0]!.extracted[f]) && !Array.isArray(expected[f]))!;
    expect(field).toBeDefined();

    expect((await correct(checker, setId, firstId, expected[field])).status).toBe(200);
    const layouts = await db.select().from(learnedLayouts).where(eq(learnedLayouts.organizationId, checker.organizationId));
    expect(layouts).toHaveLength(1);
    expect(layouts[0]!.documentType).toBe("commercial_invoice");
    expect(Object.keys(layouts[0]!.fields as object)).toEqual([field]);
    const taughtEvents = await db.select().from(auditEvents).where(and(eq(auditEvents.target, setId), eq(auditEvents.action, "document_set.layout_taught")));
    expect(taughtEvents).toHaveLength(1);

    const secondId = await upload(checker, setId, second, "invoice-b.pdf");
    const next = (await fileView(checker, setId, secondId)).splits[0]!;
    expect(next.extracted[field]).toEqual(second.expected[0]!.extracted[field]);
    expect(next.evidence![field]!.taught).toEqual({ layout: layouts[0]!.id, source: `invoice-a.pdf p. 1 in set LC 1 — teach` });

    // Another organization's upload of the same invoice is read by the engine's own rules.
    const theirSet = await newSet(stranger, "LC 2");
    const theirId = await upload(stranger, theirSet, second, "invoice-b.pdf");
    const theirs = (await fileView(stranger, theirSet, theirId)).splits[0]!;
    expect(theirs.extracted[field]).not.toEqual(second.expected[0]!.extracted[field]);
    expect(theirs.evidence?.[field]?.taught).toBeUndefined();

    // Undoing the correction forgets the field this document taught.
    expect((await correct(checker, setId, firstId, null)).status).toBe(200);
    const [after] = await db.select().from(learnedLayouts).where(eq(learnedLayouts.id, layouts[0]!.id));
    expect(after!.fields).toEqual({});
    expect((await correct(checker, setId, firstId, expected[field])).status).toBe(200);
  });

  it("lets an admin list and forget a learned layout, audited; a member and another organization cannot", async () => {
    const listed = await layoutsRoute.GET(appRequest("/api/admin/layouts", { caller: admin }), params({}));
    expect(listed.status).toBe(200);
    const { layouts } = (await listed.json()) as { layouts: LearnedLayoutSummary[] };
    expect(layouts).toHaveLength(1);
    expect(layouts[0]).toMatchObject({ documentType: "Commercial Invoice", fields: [{ field, fileName: "invoice-a.pdf", pages: [1], setName: "LC 1 — teach" }] });
    const id = layouts[0]!.id;

    expect((await layoutsRoute.GET(appRequest("/api/admin/layouts", { caller: checker }), params({}))).status).toBe(403);
    expect((await layoutRoute.DELETE(appRequest(`/api/admin/layouts/${id}`, { method: "DELETE", caller: checker }), params({ id }))).status).toBe(403);
    const foreign = await layoutRoute.DELETE(appRequest(`/api/admin/layouts/${id}`, { method: "DELETE", caller: stranger }), params({ id }));
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ detail: "No learned layout with this id in your organization." });

    const forgotten = await layoutRoute.DELETE(appRequest(`/api/admin/layouts/${id}`, { method: "DELETE", caller: admin }), params({ id }));
    expect(forgotten.status).toBe(200);
    expect(await db.select().from(learnedLayouts).where(eq(learnedLayouts.id, id))).toEqual([]);
    const events = await db.select().from(auditEvents).where(and(eq(auditEvents.target, id), eq(auditEvents.action, "layout.forgotten")));
    expect(events.map((e) => e.actor)).toEqual([admin.userId]);

    // The next invoice of the layout is read by the engine's own rules again.
    const setId = await newSet(checker, "LC 3");
    const againId = await upload(checker, setId, second, "invoice-b.pdf");
    expect((await fileView(checker, setId, againId)).splits[0]!.evidence?.[field]?.taught).toBeUndefined();
  }, 180_000);
});
