import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "@/db/client";
import { findDocumentSet } from "@/db/queries/sets";
import { insertSetFile, listSetFiles } from "@/db/queries/sets-files";
import { AnalysisError } from "@/lib/analysis/errors";
import { sniffFormat } from "@/lib/analysis/ingest/sniff";
import { ServiceError } from "@/lib/services/errors";
import { SET_NOT_FOUND } from "./delete-set";
import { newId } from "@/db/ids";
import { databaseFileStore, type FileStore } from "./storage";
import { toFileView } from "./file-view";
import type { SetFileView } from "./types";

/** A presentation is a handful of files; more is a mistake (or an attack on storage). */
export const MAX_FILES_PER_SET = 50;
/** File names are shown, never used as paths; long ones are cut. */
export const FILE_NAME_MAX_LENGTH = 255;
const UNNAMED_FILE = "upload";

/**
 * Stores an uploaded file in a set, status `uploaded`. The format comes from
 * the bytes alone: a file we cannot read is refused here, before it is kept.
 */
export async function addFile(
  db: Db,
  params: { organizationId: string; setId: string; fileName: string; bytes: Uint8Array },
  store: (tx: Db) => FileStore = databaseFileStore,
): Promise<SetFileView> {
  if (params.bytes.length === 0) throw new AnalysisError("empty", "The file is empty (0 bytes).");
  const format = sniffFormat(params.bytes);
  if (!format) {
    throw new AnalysisError(
      "unsupported_format",
      "The file's format is not recognised; upload a PDF, Word (DOCX), e-mail (EML) or image (PNG, JPEG, TIFF, WebP) file.",
    );
  }
  const fileName = params.fileName.trim().slice(0, FILE_NAME_MAX_LENGTH) || UNNAMED_FILE;
  const row = await db.transaction(async (tx) => {
    const scope = { organizationId: params.organizationId, setId: params.setId };
    if (!(await findDocumentSet(tx, scope))) throw new ServiceError("not_found", SET_NOT_FOUND);
    if ((await listSetFiles(tx, scope)).length >= MAX_FILES_PER_SET) {
      throw new ServiceError("conflict", `A set holds at most ${MAX_FILES_PER_SET} files; start a new set for more.`);
    }
    const storageKey = newId("blob");
    await store(tx).put({ organizationId: params.organizationId, storageKey, bytes: params.bytes });
    return insertSetFile(tx, {
      id: newId("sfl"),
      ...scope,
      fileName,
      sizeBytes: params.bytes.length,
      sha256: createHash("sha256").update(params.bytes).digest("hex"),
      format,
      storageKey,
    });
  });
  return toFileView(row, { pages: null, analysisResult: null, corrections: [] });
}
