import "server-only";
import { FORMAT_MIME_TYPES, type DocumentFormat } from "@/lib/analysis";
import { ApiError } from "@/lib/errors";
import { MULTIPART_OVERHEAD_BYTES, readAnalyzeForm } from "@/lib/api/multipart";
import { reserveUploadBytes } from "@/lib/api/upload-budget";
import { chunkedUploadSink } from "@/lib/api/upload-chunks";
import { env } from "@/lib/env";
import { declaredPartType } from "@/lib/jobs";
import { deleteDocumentSet } from "@/lib/services/delete-document-set";
import { addFile } from "../add-file";
import { correctSplit } from "../correct-split";
import { createSet } from "../create-set";
import { getSet } from "../get-set";
import { listSets } from "../list-sets";
import { readFileContent } from "../read-file-content";
import { readPageSheet } from "../read-page-sheet";
import { limitUploadRate, precheckStorage } from "../upload-limits";
import { withMemberRoute } from "@/lib/auth/route-handler";
import { readJsonObject } from "./json-object";

const BYTES_PER_MB = 2 ** 20;
/** A document and the pages drawn from it are never kept by the browser: its cache outlives sign-out. */
const NOT_STORED = "no-store";

/** GET /api/sets */
export const listSetsRoute = withMemberRoute(async (_request, { db, session: member }) => {
  return Response.json({ sets: await listSets(db, { organizationId: member.organizationId }) });
});

/** POST /api/sets {name, presentationDate?} */
export const createSetRoute = withMemberRoute(async (request, { db, session: member }) => {
  const body = await readJsonObject(request);
  const set = await createSet(db, {
    organizationId: member.organizationId,
    userId: member.userId,
    name: body.name as string,
    presentationDate: (body.presentationDate as string | null | undefined) || null,
  });
  return Response.json(set, { status: 201, headers: { location: `/api/sets/${set.id}` } });
});

/** GET /api/sets/{id} */
export const getSetRoute = withMemberRoute<{ id: string }>(async (_request, { db, session: member, params: { id: setId } }) => {
  return Response.json(await getSet(db, { organizationId: member.organizationId, setId }));
});

/** DELETE /api/sets/{id}: the set's creator or an admin (403 otherwise), audited. */
export const deleteSetRoute = withMemberRoute<{ id: string }>(async (_request, { db, session: member, params: { id: setId } }) => {
  await deleteDocumentSet(db, { organizationId: member.organizationId, setId, deletedBy: member.userId });
  return new Response(null, { status: 204 });
});

/**
 * POST /api/sets/{id}/files: one file per request (the browser sends each
 * file on its own, with its own progress). Before the body is read: the
 * person's and the organization's upload rates (429), and whether the declared
 * length fits the organization's storage quota (413). The body streams through
 * the multipart reader with the upload limit, its file into chunked storage
 * as it arrives; its analysis is queued with it. A file the set does not
 * accept (refused, or the request failed) leaves no chunk behind.
 */
export const uploadFileRoute = withMemberRoute<{ id: string }>(async (request, { db, session: member, params: { id: setId } }) => {
  await limitUploadRate(db, { organizationId: member.organizationId, userId: member.userId });
  await precheckStorage(db, { organizationId: member.organizationId, declaredBytes: Number(request.headers.get("content-length")) || 0 });
  const maxFileBytes = env().MAX_UPLOAD_MB * BYTES_PER_MB;
  const release = reserveUploadBytes(request, maxFileBytes + MULTIPART_OVERHEAD_BYTES);
  const sink = chunkedUploadSink(db, member.organizationId);
  let accepted = false;
  try {
    const input = await readAnalyzeForm(request, maxFileBytes, sink);
    if (input.kind !== "file") throw new ApiError("invalid_input", "Upload the document as a file field; a url is not accepted here.");
    if (input.callbackUrl !== undefined) throw new ApiError("invalid_input", "A callback_url is not accepted here: the set page shows each file's status.");
    const scope = { organizationId: member.organizationId, setId };
    const file = await addFile(db, { ...scope, userId: member.userId, fileName: input.name, upload: input.upload, declared: declaredPartType(input.mimeType) });
    accepted = true;
    return Response.json(file, { status: 201 });
  } finally {
    if (!accepted) await sink.discard();
    release();
  }
});

/** GET /api/sets/{id}/files/{fileId}/content: the stored bytes, for page thumbnails, streamed a few chunks at a time. */
export const fileContentRoute = withMemberRoute<{ id: string; fileId: string }>(async (_request, { db, session: member, params: { id: setId, fileId } }) => {
  const content = await readFileContent(db, { organizationId: member.organizationId, setId, fileId });
  return new Response(content.body, {
    headers: {
      "content-type": FORMAT_MIME_TYPES[content.format as DocumentFormat] ?? "application/octet-stream",
      "content-length": String(content.sizeBytes),
      "cache-control": NOT_STORED,
      // Served for our own viewer only: never sniffed into something else, never run as a page.
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox",
      "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(content.fileName)}`,
    },
  });
});

/** GET /api/sets/{id}/files/{fileId}/pages/{page}: a page drawn from its text, for formats with no page image. */
export const pageSheetRoute = withMemberRoute<{ id: string; fileId: string; page: string }>(async (_request, { db, session: member, params: { id: setId, fileId, page } }) => {
  const svg = await readPageSheet(db, { organizationId: member.organizationId, setId, fileId, page });
  return new Response(svg, {
    headers: {
      "content-type": "image/svg+xml; charset=utf-8",
      "cache-control": NOT_STORED,
      "x-content-type-options": "nosniff",
      // The sheet is drawn from the document's own text: nothing in it may run or load.
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    },
  });
});

/** PATCH /api/sets/{id}/files/{fileId}/splits: one correction; returns the splits in force. */
export const correctSplitRoute = withMemberRoute<{ id: string; fileId: string }>(async (request, { db, session: member, params: { id: setId, fileId } }) => {
  const correction = await readJsonObject(request);
  const splits = await correctSplit(db, { organizationId: member.organizationId, userId: member.userId, setId, fileId, correction });
  return Response.json({ splits });
});
