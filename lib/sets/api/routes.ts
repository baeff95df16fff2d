import "server-only";
import { FORMAT_MIME_TYPES, type DocumentFormat } from "@/lib/analysis";
import { ApiError } from "@/lib/api/errors";
import { MULTIPART_OVERHEAD_BYTES, readAnalyzeForm } from "@/lib/api/multipart";
import { reserveUploadBytes } from "@/lib/api/upload-budget";
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
import { readJsonBody, withMember } from "./respond";

const BYTES_PER_MB = 2 ** 20;
/** A document and the pages drawn from it are never kept by the browser: its cache outlives sign-out. */
const NOT_STORED = "no-store";

/** GET /api/sets */
export const listSetsRoute = withMember(async (_request, { db, member }) => {
  return Response.json({ sets: await listSets(db, { organizationId: member.organizationId }) });
}, { mutation: false });

/** POST /api/sets {name, presentationDate?} */
export const createSetRoute = withMember(async (request, { db, member }) => {
  const body = await readJsonBody(request);
  const set = await createSet(db, {
    organizationId: member.organizationId,
    userId: member.userId,
    name: body.name as string,
    presentationDate: (body.presentationDate as string | null | undefined) || null,
  });
  return Response.json(set, { status: 201, headers: { location: `/api/sets/${set.id}` } });
}, { mutation: true });

/** GET /api/sets/{id} */
export function getSetRoute(setId: string) {
  return withMember(async (_request, { db, member }) => {
    return Response.json(await getSet(db, { organizationId: member.organizationId, setId }));
  }, { mutation: false });
}

/** DELETE /api/sets/{id}: the set's creator or an admin (403 otherwise), audited. */
export function deleteSetRoute(setId: string) {
  return withMember(async (_request, { db, member }) => {
    await deleteDocumentSet(db, { organizationId: member.organizationId, setId, deletedBy: member.userId });
    return new Response(null, { status: 204 });
  }, { mutation: true });
}

/**
 * POST /api/sets/{id}/files: one file per request (the browser sends each
 * file on its own, with its own progress). Before the body is read: the
 * person's and the organization's upload rates (429), and whether the declared
 * length fits the organization's storage quota (413). The body streams through
 * the multipart reader with the upload limit; its analysis is queued with it.
 */
export function uploadFileRoute(setId: string) {
  return withMember(async (request, { db, member }) => {
    await limitUploadRate(db, { organizationId: member.organizationId, userId: member.userId });
    await precheckStorage(db, { organizationId: member.organizationId, declaredBytes: Number(request.headers.get("content-length")) || 0 });
    const maxFileBytes = env().MAX_UPLOAD_MB * BYTES_PER_MB;
    const release = reserveUploadBytes(request, maxFileBytes + MULTIPART_OVERHEAD_BYTES);
    try {
      const input = await readAnalyzeForm(request, maxFileBytes);
      if (input.kind !== "file") throw new ApiError("bad_request", "Upload the document as a file field; a url is not accepted here.");
      if (input.callbackUrl !== undefined) throw new ApiError("bad_request", "A callback_url is not accepted here: the set page shows each file's status.");
      const scope = { organizationId: member.organizationId, setId };
      const file = await addFile(db, { ...scope, userId: member.userId, fileName: input.name, bytes: input.bytes, declared: declaredPartType(input.mimeType) });
      return Response.json(file, { status: 201 });
    } finally {
      release();
    }
  }, { mutation: true });
}

/** GET /api/sets/{id}/files/{fileId}/content: the stored bytes, for page thumbnails. */
export function fileContentRoute(setId: string, fileId: string) {
  return withMember(async (_request, { db, member }) => {
    const content = await readFileContent(db, { organizationId: member.organizationId, setId, fileId });
    return new Response(new Uint8Array(content.bytes), {
      headers: {
        "content-type": FORMAT_MIME_TYPES[content.format as DocumentFormat] ?? "application/octet-stream",
        "content-length": String(content.bytes.length),
        "cache-control": NOT_STORED,
        // Served for our own viewer only: never sniffed into something else, never run as a page.
        "x-content-type-options": "nosniff",
        "content-security-policy": "sandbox",
        "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(content.fileName)}`,
      },
    });
  }, { mutation: false });
}

/** GET /api/sets/{id}/files/{fileId}/pages/{page}: a page drawn from its text, for formats with no page image. */
export function pageSheetRoute(setId: string, fileId: string, page: string) {
  return withMember(async (_request, { db, member }) => {
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
  }, { mutation: false });
}

/** PATCH /api/sets/{id}/files/{fileId}/splits: one correction; returns the splits in force. */
export function correctSplitRoute(setId: string, fileId: string) {
  return withMember(async (request, { db, member }) => {
    const correction = await readJsonBody(request);
    const splits = await correctSplit(db, { organizationId: member.organizationId, userId: member.userId, setId, fileId, correction });
    return Response.json({ splits });
  }, { mutation: true });
}
