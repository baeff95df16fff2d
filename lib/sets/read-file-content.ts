import "server-only";
import type { Db } from "@/db/client";
import { findSetFileStorage } from "@/db/queries/sets-files";
import { withOrganizationScope } from "@/db/scope";
import { ApiError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { databaseFileStore, type FileStore } from "./storage";

/** One uploaded file, ready to send: its length, its bytes as a stream, its sniffed format and name. */
export interface FileContent {
  sizeBytes: number;
  body: ReadableStream<Uint8Array>;
  format: string;
  fileName: string;
}

/** One uploaded file of the organization's set, streamed from storage as the client reads it. */
export async function readFileContent(
  db: Db,
  params: { organizationId: string; setId: string; fileId: string },
  store: FileStore = databaseFileStore(db),
): Promise<FileContent> {
  const file = await findSetFileStorage(db, params);
  const opened = file && (await store.open({ organizationId: params.organizationId, storageKey: file.storageKey }));
  if (!file || !opened) throw new ApiError("not_found", "No such file in this set.");
  const body = pulledBody(params.organizationId, opened.chunks, `file content ${params.fileId}`);
  return { sizeBytes: opened.sizeBytes, body, format: file.format, fileName: file.fileName };
}

/**
 * The chunks as a response body, pulled one at a time as the client reads
 * (the store reads a few per statement), so a large file is never held whole
 * and a slow client holds back the reads. The body is read after the route
 * has returned, outside the organization scope its wrapper entered: each read
 * enters it again. A damaged file breaks the response off (its headers are
 * sent) and is logged.
 */
function pulledBody(organizationId: string, chunks: AsyncIterable<Uint8Array>, context: string): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await withOrganizationScope(organizationId, () => iterator.next());
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          logError(context, error);
          controller.error(error);
        }
      },
      async cancel() {
        await withOrganizationScope(organizationId, async () => void (await iterator.return?.()));
      },
    },
    { highWaterMark: 0 },
  );
}
