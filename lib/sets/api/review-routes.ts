import "server-only";
import { correctField, reviewDocument } from "../correct-field";
import { decideFinding } from "../decide-finding";
import { ServiceError } from "@/lib/services/errors";
import { EXPORT_FORMATS, exportSet, isExportFormat } from "../export/export-set";
import { getSet } from "../get-set";
import { readJsonBody, withMember } from "./respond";

/**
 * The checker's routes. Each answers with the whole set as it now stands, so
 * the page shows the recomputed comparison, findings and status at once.
 */

/** PUT /api/sets/{id}/files/{fileId}/fields {splitIndex, field, value}: value null puts the engine's value back. */
export function correctFieldRoute(setId: string, fileId: string) {
  return withMember(async (request, { db, member }) => {
    const scope = { organizationId: member.organizationId, setId };
    await correctField(db, { ...scope, fileId, userId: member.userId, input: await readJsonBody(request) });
    return Response.json(await getSet(db, scope));
  }, { mutation: true });
}

/** PUT /api/sets/{id}/files/{fileId}/reviews {splitIndex, reviewed} */
export function reviewDocumentRoute(setId: string, fileId: string) {
  return withMember(async (request, { db, member }) => {
    const scope = { organizationId: member.organizationId, setId };
    await reviewDocument(db, { ...scope, fileId, userId: member.userId, input: await readJsonBody(request) });
    return Response.json(await getSet(db, scope));
  }, { mutation: true });
}

/** POST /api/sets/{id}/decisions {findingKey, decision: accept | waive | reopen, note} */
export function decideFindingRoute(setId: string) {
  return withMember(async (request, { db, member }) => {
    const scope = { organizationId: member.organizationId, setId };
    await decideFinding(db, { ...scope, userId: member.userId, input: await readJsonBody(request) });
    return Response.json(await getSet(db, scope));
  }, { mutation: true });
}

/** GET /api/sets/{id}/export?format=pdf|xlsx|csv: the discrepancy report or the comparison matrix, as a download. */
export function exportSetRoute(setId: string) {
  return withMember(async (request, { db, member }) => {
    const format = new URL(request.url).searchParams.get("format") ?? "pdf";
    if (!isExportFormat(format)) throw new ServiceError("invalid_input", `format: one of ${EXPORT_FORMATS.join(", ")}.`);
    const file = await exportSet(db, { organizationId: member.organizationId, setId, by: member.email, format });
    return new Response(new Uint8Array(file.bytes), {
      headers: {
        "content-type": file.contentType,
        "content-length": String(file.bytes.length),
        "content-disposition": `attachment; filename="${file.fileName}"`,
        // The report holds the documents' contents: never kept by a shared cache or the browser's.
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  }, { mutation: false });
}
