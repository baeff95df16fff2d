import "server-only";
import { ApiError } from "@/lib/errors";
import { malformed, megabytes, MULTIPART_OVERHEAD_BYTES, openParser, pumpForm, requireMultipart, UNNAMED_UPLOAD, type SpooledPart } from "./multipart";
import { UploadSpool } from "./upload-spool";

/** What a caller sent to compare: the files in form order, the text fields by name, repeatable fields' values in form order. */
export interface FilesForm {
  /** `mimeType`: the part's declared Content-Type, checked against its bytes (see checkDocument). */
  files: { name: string; bytes: Uint8Array; mimeType?: string }[];
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
 * counted against the total cap, so nothing larger is ever buffered whole.
 * Each file is spooled to a temporary file as it arrives and read back once
 * when the form is complete (as readAnalyzeForm does).
 */
export async function readFilesForm(request: Request, limits: FilesFormLimits, hint: string): Promise<FilesForm> {
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

  const spool = new UploadSpool();
  const files: SpooledPart[] = [];
  const fields = new Map<string, string>();
  const lists = new Map<string, string[]>();
  let listValues = 0;
  try {
    await pumpForm(body, parser, { maxBodyBytes, tooLarge: totalTooLarge }, (fail) => {
      parser.on("file", (name, stream, info) => {
        if (name !== FILE_FIELD) fail(new ApiError("invalid_input", `Unexpected file field "${name}"; ${hint}.`));
        const fileName = info.filename || UNNAMED_UPLOAD;
        stream.on("limit", () => fail(new ApiError("payload_too_large", `${fileName} is larger than the ${megabytes(limits.maxFileBytes)} limit per file.`)));
        const file: SpooledPart = { name: fileName, mimeType: info.mimeType, stream, written: spool.write(stream) };
        file.written.catch((error: Error) => fail(malformed(error)));
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
    const read: FilesForm["files"] = [];
    for (const file of files) read.push({ name: file.name, bytes: await spool.read(await file.written), mimeType: file.mimeType });
    return { files: read, fields, lists };
  } finally {
    // A refused body leaves its last part half-written: close it before its file goes.
    for (const file of files) file.stream.destroy();
    await spool.remove();
  }
}
