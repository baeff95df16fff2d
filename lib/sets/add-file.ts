import "server-only";
import type { Db } from "@/db/client";
import { findDocumentSet } from "@/db/queries/sets";
import { insertSetFile, listSetFiles } from "@/db/queries/sets-files";
import { analysisQueue, checkDocument, checkSniffedDocument, enqueueStoredFile, wakeWorkers, type DeclaredType, type DocumentContent } from "@/lib/jobs";
import { ApiError } from "@/lib/errors";
import { SET_NOT_FOUND } from "./delete-set";
import { newId } from "@/db/ids";
import { databaseFileStore, type FileStore } from "./storage";
import { toFileView } from "./file-view";
import { reserveStorage } from "./upload-limits";
import type { SetFileView } from "./types";

/** A presentation is a handful of files; more is a mistake (or an attack on storage). */
const MAX_FILES_PER_SET = 50;
/** File names are shown, never used as paths; long ones are cut. */
const FILE_NAME_MAX_LENGTH = 255;
const UNNAMED_FILE = "upload";

/**
 * Stores an uploaded file in a set, status `uploaded`, and queues its analysis
 * in the same transaction (the analysis service's job; the file's status
 * follows it). The format comes from the bytes alone (checkDocument, as for
 * the API): a file we cannot read is refused here, before it is kept. The
 * file is its bytes, or an upload the route streamed (kept by this
 * transaction: marked received, or written when the intake held it whole).
 */
export async function addFile(
  db: Db,
  params: { organizationId: string; userId: string | null; setId: string; fileName: string; declared?: DeclaredType } & DocumentContent,
  store: (tx: Db) => FileStore = databaseFileStore,
): Promise<SetFileView> {
  const format = params.upload ? checkSniffedDocument(params.upload, params.declared) : checkDocument(params.bytes, params.declared);
  const sizeBytes = params.upload ? params.upload.sizeBytes : params.bytes.length;
  const fileName = params.fileName.trim().slice(0, FILE_NAME_MAX_LENGTH) || UNNAMED_FILE;
  const queue = await analysisQueue(db);
  const row = await db.transaction(async (tx) => {
    const scope = { organizationId: params.organizationId, setId: params.setId };
    if (!(await findDocumentSet(tx, scope))) throw new ApiError("not_found", SET_NOT_FOUND);
    if ((await listSetFiles(tx, scope)).length >= MAX_FILES_PER_SET) {
      throw new ApiError("conflict", `A set holds at most ${MAX_FILES_PER_SET} files; start a new set for more.`);
    }
    await reserveStorage(tx, { organizationId: params.organizationId, bytes: sizeBytes });
    const stored = await store(tx).put({ organizationId: params.organizationId, content: params });
    const file = await insertSetFile(tx, { id: newId("sfl"), ...scope, fileName, format, ...stored });
    await enqueueStoredFile(tx, queue, {
      organizationId: params.organizationId,
      userId: params.userId,
      setFileId: file.id,
      storageKey: stored.storageKey,
      name: fileName,
      sizeBytes: file.sizeBytes,
      sha256: file.sha256,
    });
    return file;
  });
  await wakeWorkers(db, 1);
  return toFileView(row, { pages: null, analysisResult: null, corrections: [] });
}
