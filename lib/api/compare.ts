import "server-only";
import { ExaminationError } from "@/lib/analysis/examine/errors";
import { isIsoDate } from "@/lib/analysis/examine/fields";
import { examineFiles, type PresentedFile } from "@/lib/analysis/examine/files";
import { FORMAT_MIME_TYPES, sniffFormat } from "@/lib/analysis/ingest/sniff";
import { env } from "@/lib/env";
import { ApiError } from "./errors";
import { readFilesForm } from "./multipart-files";

const BYTES_PER_MB = 2 ** 20;
/** Most files one presentation may upload: a bank set is a credit and a dozen documents, rarely more. */
export const MAX_COMPARE_FILES = 20;
/** Cap on all files of one request together (each file also has the MAX_UPLOAD_MB cap). */
export const MAX_COMPARE_TOTAL_MB = 100;
export const PRESENTATION_DATE_FIELD = "presentation_date";
/** A date is ten characters; a little room so a longer value is refused as a bad date, not truncated. */
const MAX_DATE_FIELD_LENGTH = 32;
const FIELD_NAMES: ReadonlySet<string> = new Set([PRESENTATION_DATE_FIELD]);
const FORM_HINT =
  "send multipart/form-data with one file field per document (the credit and the presented documents) and optionally presentation_date (YYYY-MM-DD)";
const SUPPORTED_FORMATS_TEXT = Object.keys(FORMAT_MIME_TYPES).map((f) => f.toUpperCase()).join(", ");

function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/** isIsoDate lets Date.parse roll 2030-02-30 over to March; a presentation date must name a real day. */
function isCalendarDate(value: string): boolean {
  return isIsoDate(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
}

function presentationDateOf(value: string | undefined): string {
  if (value === undefined) return todayUtc();
  if (!isCalendarDate(value.trim())) {
    throw new ApiError("bad_request", `The ${PRESENTATION_DATE_FIELD} must be a date written YYYY-MM-DD, not "${value}".`);
  }
  return value.trim();
}

/** Refuses, before any analysis, a file that is empty or not in a format we read, naming it. */
function checkFileBytes(file: PresentedFile): void {
  if (file.bytes.length === 0) throw new ApiError("unprocessable", `${file.name}: the document is empty (0 bytes).`);
  if (!sniffFormat(file.bytes)) {
    throw new ApiError("unsupported_media_type", `${file.name}: not a format we read; send ${SUPPORTED_FORMATS_TEXT} documents.`);
  }
}

/**
 * POST /v1/documents/compare, once the key and the rate limit have passed:
 * receive the files, check each one's bytes, examine them as one presentation
 * and return `{ findings, matrix }` exactly as `npm run examine` prints it.
 * Unreadable files surface as AnalysisError (named by examineFiles) and the
 * wrapper maps them to 415/422.
 */
export async function compareRequest(request: Request): Promise<Response> {
  const form = await readFilesForm(
    request,
    {
      maxFiles: MAX_COMPARE_FILES,
      maxFileBytes: env().MAX_UPLOAD_MB * BYTES_PER_MB,
      maxTotalBytes: MAX_COMPARE_TOTAL_MB * BYTES_PER_MB,
      fieldNames: FIELD_NAMES,
      maxFieldLength: MAX_DATE_FIELD_LENGTH,
    },
    FORM_HINT,
  );
  const presentationDate = presentationDateOf(form.fields.get(PRESENTATION_DATE_FIELD));
  if (form.files.length === 0) throw new ApiError("bad_request", `The form has no file; ${FORM_HINT}.`);
  form.files.forEach(checkFileBytes);
  try {
    return Response.json(await examineFiles(form.files, presentationDate));
  } catch (error) {
    if (error instanceof ExaminationError) throw new ApiError("unprocessable", error.message);
    throw error;
  }
}
