import "server-only";
import { correctField, reviewDocument } from "../correct-field";
import { decideFinding } from "../decide-finding";
import { ApiError } from "@/lib/errors";
import { EXPORT_FORMATS, exportSet, isExportFormat } from "../export/export-set";
import { getSet } from "../get-set";
import { withMemberRoute } from "@/lib/auth/route-handler";
import { readJsonObject } from "./json-object";

/**
 * The checker's routes. Each answers with the whole set as it now stands, so
 * the page shows the recomputed comparison, findings and status at once.
 */

/** PUT /api/sets/{id}/files/{fileId}/fields {splitIndex, field, value}: value null puts the engine's value back. */
export const correctFieldRoute = withMemberRoute<{ id: string; fileId: string }>(async (request, { db, session: member, params: { id: setId, fileId } }) => {
  const scope = { organizationId: member.organizationId, setId };
  await correctField(db, { ...scope, fileId, userId: member.userId, input: await readJsonObject(request) });
  return Response.json(await getSet(db, scope));
});

/** PUT /api/sets/{id}/files/{fileId}/reviews {splitIndex, reviewed} */
export const reviewDocumentRoute = withMemberRoute<{ id: string; fileId: string }>(async (request, { db, session: member, params: { id: setId, fileId } }) => {
  const scope = { organizationId: member.organizationId, setId };
  await reviewDocument(db, { ...scope, fileId, userId: member.userId, input: await readJsonObject(request) });
  return Response.json(await getSet(db, scope));
});

/** POST /api/sets/{id}/decisions {findingKey, decision: accept | waive | reopen, note} */
export const decideFindingRoute = withMemberRoute<{ id: string }>(async (request, { db, session: member, params: { id: setId } }) => {
  const scope = { organizationId: member.organizationId, setId };
  await decideFinding(db, { ...scope, userId: member.userId, input: await readJsonObject(request) });
  return Response.json(await getSet(db, scope));
});

/** GET /api/sets/{id}/export?format=pdf|xlsx|csv: the discrepancy report or the comparison matrix, as a download. */
export const exportSetRoute = withMemberRoute<{ id: string }>(async (request, { db, session: member, params: { id: setId } }) => {
  const format = new URL(request.url).searchParams.get("format") ?? "pdf";
  if (!isExportFormat(format)) throw new ApiError("invalid_input", `format: one of ${EXPORT_FORMATS.join(", ")}.`);
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
});
