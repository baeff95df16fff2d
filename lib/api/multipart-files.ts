import "server-only";
import { ApiError } from "@/lib/errors";
import { megabytes, MULTIPART_OVERHEAD_BYTES, openParser, pumpForm, requireMultipart, sinkFailure, UNNAMED_UPLOAD, type FileSink, type ReceivedPart } from "./multipart";

/**
 * What a caller sent to compare: the files in form order (each what the
 * form's sink made of it), the text fields by name, repeatable fields' values
 * in form order.
 */
export interface FilesForm<F> {
  /** `mimeType`: the part's declared Content-Type, checked against its bytes (see checkDocument). */
  files: ({ name: string; mimeType?: string } & F)[];
  fields: Map<string, string>;
  lists: Map<string, string[]>;
}

export interface FilesFormLimits {
  maxFiles: number;
  /** Cap on each file. */
  maxFileBytes: number;
  /** Cap on all files together. */
  maxTotalBytes: number;
  /** Text fields the form may carry once each, besides the repeated `file`. */
  fieldNames: ReadonlySet<string>;
  /** Text fields the form may repeat (e.g. `analysis_id`); none unless given. */
  listNames?: ReadonlySet<string>;
  /** Most values of repeatable fields, all names together. */
  maxListValues?: number;
  /** Longest text field value. */
  maxFieldLength: number;
}

const FILE_FIELD = "file";
/** Parts beyond files and fields that are tolerated before a flood is refused. */
const SPARE_PARTS = 2;

/**
 * Reads a form of several files (`file` repeated) and a few text fields while
 * the body streams, with the same guards as the analyze form: declared length
 * first, then busboy limits on count and size per file, and every raw byte
 * counted against the total cap. Each file goes to `sink` as it arrives (the
 * route streams them into chunked storage: none is ever held whole in
 * memory), as readAnalyzeForm's file does. A refused or failed form discards
 * what the sink stored.
 */
export async function readFilesForm<F>(request: Request, limits: FilesFormLimits, hint: string, sink: FileSink<F>): Promise<FilesForm<F>> {
  const maxBodyBytes = limits.maxTotalBytes + MULTIPART_OVERHEAD_BYTES;
  const totalTooLarge = new ApiError("payload_too_large", `The files together are larger than the ${megabytes(limits.maxTotalBytes)} limit.`);
  const { contentType, body } = requireMultipart(request, maxBodyBytes, totalTooLarge, hint);
  const listNames = limits.listNames ?? new Set<string>();
  const maxListValues = listNames.size ? (limits.maxListValues ?? 0) : 0;
  const maxFields = limits.fieldNames.size + maxListValues;
  const parser = openParser(
    contentType,
    {
      files: limits.maxFiles,
      fileSize: limits.maxFileBytes,
      fields: maxFields,
      parts: limits.maxFiles + maxFields + SPARE_PARTS,
      fieldSize: limits.maxFieldLength,
    },
    hint,
  );

  const files: ReceivedPart<F>[] = [];
  const fields = new Map<string, string>();
  const lists = new Map<string, string[]>();
  let listValues = 0;
  let read = false;
  try {
    await pumpForm(body, parser, { maxBodyBytes, tooLarge: totalTooLarge }, (fail) => {
      parser.on("file", (name, stream, info) => {
        if (name !== FILE_FIELD) fail(new ApiError("invalid_input", `Unexpected file field "${name}"; ${hint}.`));
        const fileName = info.filename || UNNAMED_UPLOAD;
        stream.on("limit", () => fail(new ApiError("payload_too_large", `${fileName} is larger than the ${megabytes(limits.maxFileBytes)} limit per file.`)));
        const file: ReceivedPart<F> = { name: fileName, mimeType: info.mimeType, stream, received: sink.receive(stream) };
        file.received.catch((error: Error) => fail(sinkFailure(error)));
        files.push(file);
      });
      parser.on("field", (name, value, info) => {
        if (name === FILE_FIELD) fail(new ApiError("invalid_input", "The file field must be a file upload, not text."));
        else if (!limits.fieldNames.has(name) && !listNames.has(name)) fail(new ApiError("invalid_input", `Unexpected form field "${name}"; ${hint}.`));
        else if (info.valueTruncated) fail(new ApiError("invalid_input", `The ${name} field is longer than ${limits.maxFieldLength} characters.`));
        else if (listNames.has(name)) {
          if (++listValues > maxListValues) fail(new ApiError("invalid_input", `Send at most ${maxListValues} ${[...listNames].join(" or ")} values per request.`));
          else lists.set(name, [...(lists.get(name) ?? []), value]);
        } else if (fields.has(name)) fail(new ApiError("invalid_input", `The ${name} field is given twice.`));
        else fields.set(name, value);
      });
      parser.on("filesLimit", () => fail(new ApiError("invalid_input", `Send at most ${limits.maxFiles} files per request.`)));
      parser.on("fieldsLimit", () => fail(new ApiError("invalid_input", `Too many form fields; ${hint}.`)));
      parser.on("partsLimit", () => fail(new ApiError("invalid_input", `Too many form parts; ${hint}.`)));
    });
    const received: FilesForm<F>["files"] = [];
    for (const file of files) received.push({ name: file.name, mimeType: file.mimeType, ...(await file.received) });
    read = true;
    return { files: received, fields, lists };
  } finally {
    // A refused body leaves its last part half-written: close it, then undo what was stored of the files.
    for (const file of files) file.stream.destroy();
    if (!read) await sink.discard();
  }
}
