import "server-only";
import type { Readable } from "node:stream";
import busboy from "busboy";
import { ApiError } from "@/lib/errors";

/**
 * What a caller sent: exactly one of the two document fields, and where to
 * post the outcome if it asked. The file is what the form's sink made of it
 * (its place in storage, for chunkedUploadSink).
 */
export type AnalyzeInput<F> = (({ kind: "file"; name: string; mimeType?: string } & F) | { kind: "url"; url: string }) & { callbackUrl?: string };

/**
 * Where a form's file part (or a fetched document's body) goes while it
 * streams. `receive` consumes the stream (pausing it pauses the body) and
 * resolves once it is all stored; `discard` undoes what a refused or failed
 * request stored, after every receive has stopped.
 */
export interface FileSink<F> {
  receive(stream: AsyncIterable<Uint8Array>): Promise<F>;
  discard(): Promise<void>;
}

/** Room for boundaries, part headers and a url field on top of the file itself. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/** Longest url accepted (browsers and CDNs agree on roughly this much). */
export const MAX_URL_LENGTH = 8 * 1024;
/** The form has three fields at most; a little slack, then refuse floods of parts. */
const MAX_FIELDS = 4;
const MAX_PARTS = 4;
/** Content-Disposition and Content-Type are all a part needs. */
const MAX_PART_HEADER_PAIRS = 8;
export const CALLBACK_URL_FIELD = "callback_url";
const FIELD_NAMES = new Set(["file", "url", CALLBACK_URL_FIELD]);
/** Name recorded for an upload that carries no file name. */
export const UNNAMED_UPLOAD = "upload";

const FORM_HINT = "send multipart/form-data with a file field (the document) or a url field (its address)";

function malformed(error: Error): ApiError {
  return new ApiError("invalid_input", `The multipart body is malformed (${error.message}).`);
}

const cutOff = new ApiError("invalid_input", "The request body broke off before its end; send the whole form again.");

/** The sink could not store the part (the database, not the body, failed): a server error, not a malformed form. */
export class UploadStoreError extends Error {
  constructor(cause: unknown) {
    super("the upload could not be stored", { cause });
    this.name = "UploadStoreError";
  }
}

/** A sink's failure in the form's terms: the body's own fault (400), unless the store failed. */
export function sinkFailure(error: Error): Error {
  return error instanceof UploadStoreError ? error : malformed(error);
}

export function megabytes(bytes: number): string {
  return `${Math.round((bytes / 2 ** 20) * 100) / 100} MB`;
}

/** Refuses anything but a multipart body before a byte is read; returns its Content-Type and body. */
export function requireMultipart(
  request: Request,
  maxBodyBytes: number,
  tooLarge: ApiError,
  hint: string,
): { contentType: string; body: ReadableStream<Uint8Array> } {
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) {
    throw new ApiError("unsupported_media_type", `The request body is ${contentType || "missing its Content-Type"}; ${hint}.`);
  }
  if (Number(request.headers.get("content-length")) > maxBodyBytes) throw tooLarge;
  if (!request.body) throw new ApiError("invalid_input", `The request has no body; ${hint}.`);
  return { contentType, body: request.body };
}

export function openParser(contentType: string, limits: busboy.Limits, hint: string): busboy.Busboy {
  try {
    return busboy({ headers: { "content-type": contentType }, limits: { headerPairs: MAX_PART_HEADER_PAIRS, ...limits } });
  } catch {
    throw new ApiError("invalid_input", `The multipart Content-Type has no boundary; ${hint}.`);
  }
}

/**
 * Streams the body into the parser, counting every raw byte (chunked bodies
 * declare no length), and throws the first refusal. `listen` registers the
 * form's own handlers, which refuse through `fail`. On refusal the rest of the
 * body is left unread rather than cancelled: cancelling would reset the
 * connection before the error reaches the caller.
 */
export async function pumpForm(
  body: ReadableStream<Uint8Array>,
  parser: busboy.Busboy,
  limits: { maxBodyBytes: number; tooLarge: ApiError },
  listen: (fail: (error: Error) => void) => void,
): Promise<void> {
  let failure: Error | undefined;
  let finished = false;
  let settle!: () => void;
  const done = new Promise<void>((resolve) => (settle = resolve));
  const fail = (error: Error) => {
    failure ??= error;
    settle();
  };
  listen(fail);
  parser.on("error", (error: Error) => fail(malformed(error)));
  parser.on("close", () => {
    finished = true;
    settle();
  });

  const reader = body.getReader();
  let received = 0;
  try {
    while (!failure && !finished) {
      // A body that breaks off (the client went away mid-upload) is the request's fault, not the server's.
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch {
        fail(cutOff);
        break;
      }
      if (next.done) {
        parser.end();
        await done;
        break;
      }
      received += next.value.byteLength;
      if (received > limits.maxBodyBytes) fail(limits.tooLarge);
      else if (!parser.write(next.value)) await Promise.race([new Promise((r) => parser.once("drain", r)), done]);
    }
  } finally {
    // Neither the reader nor the parser is destroyed on refusal: destroying the parser would fail
    // its half-read file stream; both are simply dropped.
    reader.releaseLock();
  }
  if (failure) throw failure;
}

/**
 * Reads the analyze form while the body streams: the declared length is
 * checked first, then busboy parses with hard limits, so an oversized upload
 * is refused after at most `maxFileBytes` plus overhead has been read. The
 * file part goes to `sink` as it arrives (the routes stream it into chunked
 * storage: never held whole in memory). A refused or failed form discards
 * what the sink stored.
 */
export async function readAnalyzeForm<F>(request: Request, maxFileBytes: number, sink: FileSink<F>): Promise<AnalyzeInput<F>> {
  const maxBodyBytes = maxFileBytes + MULTIPART_OVERHEAD_BYTES;
  const tooLarge = new ApiError("payload_too_large", `The file is larger than the ${megabytes(maxFileBytes)} limit.`);
  const { contentType, body } = requireMultipart(request, maxBodyBytes, tooLarge, FORM_HINT);
  const parser = openParser(
    contentType,
    { files: 1, fileSize: maxFileBytes, fields: MAX_FIELDS, parts: MAX_PARTS, fieldSize: MAX_URL_LENGTH },
    FORM_HINT,
  );

  let file: ReceivedPart<F> | undefined;
  let url: string | undefined;
  let callbackUrl: string | undefined;
  let read = false;
  try {
    await pumpForm(body, parser, { maxBodyBytes, tooLarge }, (fail) => {
      parser.on("file", (name, stream, info) => {
        if (name !== "file") fail(new ApiError("invalid_input", `Unexpected file field "${name}"; ${FORM_HINT}.`));
        stream.on("limit", () => fail(tooLarge));
        file = { name: info.filename || UNNAMED_UPLOAD, mimeType: info.mimeType, stream, received: sink.receive(stream) };
        file.received.catch((error: Error) => fail(sinkFailure(error)));
      });
      parser.on("field", (name, value, info) => {
        if (!FIELD_NAMES.has(name)) fail(new ApiError("invalid_input", `Unexpected form field "${name}"; ${FORM_HINT}.`));
        else if (name === "file") fail(new ApiError("invalid_input", "The file field must be a file upload, not text."));
        else if (info.valueTruncated) fail(new ApiError("invalid_input", `The ${name} is longer than ${MAX_URL_LENGTH} characters.`));
        else if (name === CALLBACK_URL_FIELD) callbackUrl = value.trim();
        else url = value;
      });
      parser.on("filesLimit", () => fail(new ApiError("invalid_input", "Send one file per request.")));
      parser.on("fieldsLimit", () => fail(new ApiError("invalid_input", `Too many form fields; ${FORM_HINT}.`)));
      parser.on("partsLimit", () => fail(new ApiError("invalid_input", `Too many form parts; ${FORM_HINT}.`)));
    });
    const received = file && (await file.received);
    const input = inputOf(file && received && { name: file.name, mimeType: file.mimeType, ...received }, url);
    read = true;
    return callbackUrl === undefined ? input : { ...input, callbackUrl };
  } finally {
    // A refused body leaves its part half-written: close it, then undo what was stored of it.
    file?.stream.destroy();
    if (!read) await sink.discard();
  }
}

/** A file part on its way to the form's sink. */
export interface ReceivedPart<F> {
  name: string;
  mimeType?: string;
  stream: Readable;
  received: Promise<F>;
}

function inputOf<F>(file: ({ name: string; mimeType?: string } & F) | undefined, url: string | undefined): AnalyzeInput<F> {
  if (file && url !== undefined) throw new ApiError("invalid_input", "Send either a file or a url, not both.");
  if (file) return { kind: "file", ...file };
  if (url !== undefined) {
    if (url.trim() === "") throw new ApiError("invalid_input", "The url field is empty; give the document's address.");
    return { kind: "url", url: url.trim() };
  }
  throw new ApiError("invalid_input", `The form has neither a file nor a url; ${FORM_HINT}.`);
}
