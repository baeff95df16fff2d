import { FORMAT_MIME_TYPES } from "@/lib/analysis";
import { analysisWallTimeoutMs, env, type Env } from "@/lib/env";
import { UNAUTHORIZED_DETAILS } from "./handler";
import { API_KEY_CACHE_SECONDS } from "@/lib/keys/key-cache";
import { MAX_COMPARE_FILES, MAX_COMPARE_TOTAL_MB, PRESENTATION_DATE_FIELD } from "./compare";
import { ANALYSIS_ID_FIELD, ANALYSIS_ID_PATTERN, MAX_COMPARE_ANALYSES } from "./compare-analyses";
import { CALLBACK_URL_FIELD, MAX_URL_LENGTH } from "./multipart";
import { ACCEPTED_RESPONSE, ANALYSIS_STATUS_PATH, analysisFinishedCallback, analysisStatusOperation, ASYNC_HEADER_PARAMETERS, asyncDecisionsOf } from "./openapi-analyses";
import { EXAMINATION_EXAMPLE, resultSchemas, type JsonSchema } from "./openapi-schemas";
import { FETCHABLE_CONTENT_TYPES } from "./url-fetch";

export const ANALYZE_PATH = "/v1/documents/analyze";
export const COMPARE_PATH = "/v1/documents/compare";
const ERROR_REF = { $ref: "#/components/schemas/Error" };
const RATE_LIMIT_HEADER_REFS = {
  RateLimit: { $ref: "#/components/headers/RateLimit" },
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimit-Policy" },
};
const REQUEST_ID_HEADER_REF = { "x-request-id": { $ref: "#/components/headers/X-Request-Id" } };
/** The header naming the stored analysis, whose id compare accepts as `analysis_id`. */
export const ANALYSIS_ID_HEADER = "x-analysis-id";

export interface ApiResponseDoc {
  description: string;
  headers?: Record<string, unknown>;
  content: { "application/json": { schema: JsonSchema; examples?: Record<string, { summary: string; value: unknown }> } };
}

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: { url: string; description: string }[];
  paths: Record<string, { post?: OperationDoc; get?: OperationDoc }>;
  components: {
    schemas: Record<string, JsonSchema>;
    headers: Record<string, { description: string; schema: JsonSchema }>;
    securitySchemes: Record<string, { type: "apiKey"; in: "header"; name: string; description: string }>;
  };
}

export interface OperationDoc {
  operationId: string;
  summary: string;
  description: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: "query" | "header" | "path"; required: boolean; description: string; schema: JsonSchema }[];
  requestBody?: { required: boolean; content: { "multipart/form-data": { schema: JsonSchema } } };
  responses: Record<string, ApiResponseDoc>;
  /** Requests the service makes to the caller (the webhook of a callback_url). */
  callbacks?: Record<string, Record<string, { post: CallbackOperationDoc }>>;
}

interface CallbackOperationDoc {
  summary: string;
  description: string;
  parameters: NonNullable<OperationDoc["parameters"]>;
  requestBody: { required: boolean; content: { "application/json": { schema: JsonSchema } } };
  responses: Record<string, { description: string }>;
}

function errorResponse(description: string, examples: Record<string, string>, headers: Record<string, unknown> = {}): ApiResponseDoc {
  return {
    description,
    headers: { ...headers, ...REQUEST_ID_HEADER_REF },
    content: {
      "application/json": {
        schema: ERROR_REF,
        examples: Object.fromEntries(
          Object.entries(examples).map(([name, detail]) => [name, { summary: name.replaceAll("_", " "), value: { detail } }]),
        ),
      },
    },
  };
}

/** The decisions the spec leaves open, stated once for the description and the reference page. */
function decisionsOf(config: Env): string[] {
  return [
    "Send exactly one of `file` and `url`: both, or neither, is 400.",
    "Any other form field, a second file, or a text value in `file` is 400.",
    "A body that is not multipart/form-data is 415.",
    "The format is decided by the file's bytes (its signature), never by its name: bytes in none of the accepted formats are 415. A part whose declared Content-Type is one of the accepted formats' types but not its bytes' (a PNG sent as application/pdf) is 415 too; any other declared type (application/octet-stream, none) defers to the bytes. For a `url`, a declared Content-Type outside the accepted list, or one that disagrees with the bytes, is also 415.",
    `Files (and fetched documents, counted after decompression) larger than ${config.MAX_UPLOAD_MB} MB are 413; the limit is enforced while the body streams in. A file, or a document fetched for \`url\`, is stored in 1 MiB chunks as it arrives (the server never holds a whole upload), so a slow store slows the upload rather than buffering it; a body that breaks off before its end is 400 (a fetched one, 422), and a refused request leaves nothing stored.`,
    "An empty, unreadable (corrupt), encrypted or over-limit document (too many pages, or too long to read) is 422.",
    `Documents are read (parsed, and OCR'd where scanned) in separate reader processes, ${config.ANALYSIS_WORKERS} at a time. A document whose reading takes more than ${config.ANALYSIS_TIMEOUT_MS / 1000} s of processing (CPU) time (its reader's and OCR's together, however busy the server is), or longer than ${analysisWallTimeoutMs(config) / 1000} s on the clock (a reader that makes no progress), or makes its reader use more than ${config.ANALYSIS_MAX_MEMORY_MB} MB of memory, is stopped and answered 422 saying which; the next request is served normally.`,
    ...asyncDecisionsOf(config),
    `A missing \`x-api-key\` header is 401 saying so; an unknown, malformed or revoked key is 401 with one identical detail (which one is not revealed); an expired sandbox key is 401 saying it expired. A revoked key is refused from its next request by the server instance that revoked it, and by every other instance within ${API_KEY_CACHE_SECONDS} s.`,
    `Over the rate limit is 429 with \`Retry-After\` (seconds). Limits are per organization and key kind, per minute, shared by all of the organization's keys of that kind: ${config.RATE_LIMIT_PRODUCTION} for production keys, ${config.RATE_LIMIT_SANDBOX} for sandbox keys. Every response to a valid key carries \`RateLimit\` and \`RateLimit-Policy\`.`,
    `A \`url\` must be http or https on port 80 or 443, without user name or password, at most ${MAX_URL_LENGTH} characters, and its host must resolve, every address it resolves to being public: anything else is 400 (a name that does not resolve and one that resolves to a private address get the same answer). At most ${config.URL_MAX_REDIRECTS} redirects are followed, each checked the same way, never from https to http. A url that cannot be fetched (unreachable, error status, more than ${config.URL_MAX_REDIRECTS} redirects, no answer within ${config.URL_FETCH_TIMEOUT_MS / 1000} s) is 422. Proxies are not used.`,
    "`split.pages` are 1-based and count the file's pages in order: PDF and TIFF pages as they are, a DOCX by its explicit page breaks (and full pages), an image as one page. An e-mail (EML) is numbered consecutively across the whole message: the body's page(s) first, then each attachment's pages in attachment order, an attached message's own body and attachments where it appears.",
    "Scanned pages and images are read by OCR; a page whose text layer is empty inside an otherwise digital PDF is read by OCR too. Ingestion limits (pages, pixels per image, pixels along a side, aspect ratio, decompressed bytes, MIME parts, message nesting depth) are 422 with a detail naming the limit.",
    "A url's query string is not stored with the analysis (it may hold a signed credential).",
    `Every analysis is stored for the key's organization; the 200 response names it in \`${ANALYSIS_ID_HEADER}\` (the body stays the array). Pass that id to compareDocuments as \`${ANALYSIS_ID_FIELD}\` to examine the document without uploading it again.`,
    "Every 4XX body, and the 503 body, is exactly `{\"detail\": \"…\"}` in words; a 500's detail names only a request id, which every response also carries in `x-request-id`. Every response carries `Cache-Control: no-store`: it holds the organization's documents' data, which no cache should keep.",
  ];
}

function analyzeOperation(config: Env): OperationDoc {
  const unauthorized = UNAUTHORIZED_DETAILS;
  const types = [...FETCHABLE_CONTENT_TYPES].join(", ");
  return {
    operationId: "analyzeDocument",
    summary: "Analyze a document",
    description:
      "Splits the submitted document into its parts, names each part's type and extracts key-value pairs from each.\n\n" +
      decisionsOf(config).map((line) => `- ${line}`).join("\n"),
    security: [{ ApiKey: [] }],
    parameters: [
      {
        name: "evidence",
        in: "query",
        required: false,
        description: "`true` adds an `evidence` object to every split: page, box, raw text and confidence of each extracted value.",
        schema: { type: "boolean", default: false },
      },
      ...ASYNC_HEADER_PARAMETERS,
    ],
    requestBody: {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: {
              file: {
                type: "string",
                format: "binary",
                contentMediaType: "application/octet-stream",
                description: `The document: ${Object.keys(FORMAT_MIME_TYPES).map((f) => f.toUpperCase()).join(", ")}; at most ${config.MAX_UPLOAD_MB} MB.`,
              },
              url: {
                type: "string",
                format: "uri",
                minLength: 1,
                maxLength: MAX_URL_LENGTH,
                description: `Address of the document (http or https). Accepted Content-Types: ${types}; the bytes are checked too.`,
              },
              [CALLBACK_URL_FIELD]: {
                type: "string",
                format: "uri",
                minLength: 1,
                maxLength: MAX_URL_LENGTH,
                description: "Where the outcome is POSTed, signed, when the analysis ends (see the callback analysisFinished).",
              },
            },
            oneOf: [{ required: ["file"] }, { required: ["url"] }],
          },
        },
      },
    },
    callbacks: analysisFinishedCallback(),
    responses: {
      "200": {
        description: "The analysis: one element per split document.",
        headers: { ...RATE_LIMIT_HEADER_REFS, ...REQUEST_ID_HEADER_REF, [ANALYSIS_ID_HEADER]: { $ref: "#/components/headers/X-Analysis-Id" } },
        content: {
          "application/json": {
            schema: { $ref: "#/components/schemas/AnalysisResult" },
            examples: {
              invoice_and_bill_of_lading: {
                summary: "an invoice followed by a bill of lading",
                value: [
                  {
                    split: { document_type: "Commercial Invoice", pages: [1] },
                    extracted: { invoice_number: "INV-2031", invoice_date: "2025-03-14", currency: "USD", total_amount: 48250 },
                  },
                  {
                    split: { document_type: "Bill of Lading", pages: [2, 3] },
                    extracted: { bl_number: "MEDU1234567", port_of_loading: "Santos", gross_weight_kg: 25400 },
                  },
                ],
              },
            },
          },
        },
      },
      "202": ACCEPTED_RESPONSE,
      "400": errorResponse("The request is malformed: both or neither of file and url, an unknown field, a forbidden url, or a body that broke off before its end.", {
        both_file_and_url: "Send either a file or a url, not both.",
        body_cut_off: "The request body broke off before its end; send the whole form again.",
        forbidden_address: "The url's host 127.0.0.1 is not a public internet address.",
      }, RATE_LIMIT_HEADER_REFS),
      "401": errorResponse("The API key is missing, invalid, revoked or expired.", {
        missing_key: unauthorized.missing,
        invalid_key: unauthorized.unknown,
        expired_key: unauthorized.expired,
      }),
      "413": errorResponse(`The document is larger than ${config.MAX_UPLOAD_MB} MB.`, {
        too_large: `The file is larger than the ${config.MAX_UPLOAD_MB} MB limit.`,
      }, RATE_LIMIT_HEADER_REFS),
      "415": errorResponse("The body is not multipart/form-data, or the document is not in a format we read.", {
        unsupported_format: "The document is not a format we read; send a PDF, DOCX, EML, PNG, JPEG, TIFF or WebP document.",
      }, RATE_LIMIT_HEADER_REFS),
      "422": errorResponse("The document is empty, unreadable, encrypted or over a limit, or the url could not be fetched.", {
        empty: "The document is empty (0 bytes).",
        unreachable_url: "Could not fetch the url: the server answered 404.",
      }, RATE_LIMIT_HEADER_REFS),
      ...sharedResponses(config),
    },
  };
}

function compareOperation(config: Env): OperationDoc {
  const formats = Object.keys(FORMAT_MIME_TYPES).map((f) => f.toUpperCase()).join(", ");
  const decisions = [
    `Send the credit (with its amendments) and the presented documents as \`file\` parts (at most ${MAX_COMPARE_FILES}; a file may hold several documents), as \`${ANALYSIS_ID_FIELD}\` fields naming analyses stored by analyzeDocument (at most ${MAX_COMPARE_ANALYSES}; the id is its \`${ANALYSIS_ID_HEADER}\` response header), or both mixed. Neither, too many, any other field, or a text value in \`file\` is 400.`,
    `An \`${ANALYSIS_ID_FIELD}\` that is not an analysis id (\`ana_\` and 22 letters and digits), or one given twice, is 400. An id that is not one of your organization's analyses is 404, with the same detail whether it exists elsewhere or not at all. Stored analyses keep their page text beside their fields, so an analysis examined by id gives the same findings as its file, clause rules (clean B/L, transhipment, credit number, shipment period, amendment codes) included; an analysis stored without page text is examined on its fields alone. Documents of stored analyses are identified \`<analysis id>#<n>\` and follow the files.`,
    `\`${PRESENTATION_DATE_FIELD}\` is optional (default: today, UTC); a value that is not a real date written YYYY-MM-DD is 400.`,
    `Each file is at most ${config.MAX_UPLOAD_MB} MB and all files together at most ${MAX_COMPARE_TOTAL_MB} MB: anything larger is 413, enforced while the body streams in. The files are stored in 1 MiB chunks as they arrive, one after another, as for analyzeDocument; a refused compare leaves none of them stored.`,
    "A body that is not multipart/form-data is 415; a file whose bytes are in no format we read, or a file part declared as one of our formats (e.g. `application/pdf`) whose bytes are another, is 415 naming the file.",
    "An empty, unreadable (corrupt), encrypted or over-limit file is 422 naming the file; so is a presentation the examination refuses.",
    "Each file is an analysis job, as for analyzeDocument, queued together and read in parallel by the readers: a file whose reading is stopped at its time or memory cap is 422 naming it, and a full queue is 503 with `Retry-After`. Each file counts as one request against the rate limit.",
    "Authentication, rate limits, error bodies and `x-request-id` are as for analyzeDocument.",
    "`Idempotency-Key`, as for analyzeDocument: the same key with the same request (the same files, names and bytes in order, analysis ids and presentation date) within 24 hours answers from the first request's analyses, even while they run, without queuing or charging the files again; the same key with another request is 422. A compare of stored analyses only (no file) queues nothing and is answered afresh.",
    "The result is exactly what `npm run examine -- --presentation-date DATE FILE...` prints for the same files.",
  ];
  return {
    operationId: "compareDocuments",
    summary: "Examine a presentation against its credit",
    parameters: ASYNC_HEADER_PARAMETERS.filter((parameter) => parameter.name === "Idempotency-Key"),
    description:
      "Analyses every file, then examines the documents as one presentation under the letter of credit (UCP 600 / ISBP): " +
      "findings (discrepancies, warnings, notes) and the matrix comparing each fact across documents.\n\n" +
      decisions.map((line) => `- ${line}`).join("\n"),
    security: [{ ApiKey: [] }],
    requestBody: {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            anyOf: [{ required: ["file"] }, { required: [ANALYSIS_ID_FIELD] }],
            properties: {
              file: {
                type: "array",
                minItems: 1,
                maxItems: MAX_COMPARE_FILES,
                items: { type: "string", format: "binary", contentMediaType: "application/octet-stream" },
                description: `One part per file (${formats}); at most ${config.MAX_UPLOAD_MB} MB each.`,
              },
              [ANALYSIS_ID_FIELD]: {
                type: "array",
                minItems: 1,
                maxItems: MAX_COMPARE_ANALYSES,
                items: { type: "string", pattern: ANALYSIS_ID_PATTERN.source },
                description: "One part per stored analysis of your organization: the `x-analysis-id` of an analyzeDocument response.",
              },
              [PRESENTATION_DATE_FIELD]: { type: "string", format: "date", description: "YYYY-MM-DD; default today (UTC)." },
            },
            additionalProperties: false,
          },
        },
      },
    },
    responses: {
      "200": {
        description: "The findings and the comparison matrix.",
        headers: { ...RATE_LIMIT_HEADER_REFS, ...REQUEST_ID_HEADER_REF },
        content: {
          "application/json": {
            schema: { $ref: "#/components/schemas/ExaminationResult" },
            examples: { invoice_above_credit: { summary: "an invoice above the credit amount", value: EXAMINATION_EXAMPLE } },
          },
        },
      },
      "400": errorResponse("No file and no analysis id, too many of either, a malformed or repeated analysis id, a bad presentation date or an unknown field.", {
        no_file: "The form has no file and no analysis_id; send multipart/form-data with one file field per document.",
        too_many_files: `Send at most ${MAX_COMPARE_FILES} files per request.`,
        bad_analysis_id: `The ${ANALYSIS_ID_FIELD} "42" is not an analysis id (ana_ followed by 22 letters and digits).`,
        bad_date: `The ${PRESENTATION_DATE_FIELD} must be a date written YYYY-MM-DD, not "01/02/2030".`,
      }, RATE_LIMIT_HEADER_REFS),
      "401": errorResponse("The API key is missing, invalid, revoked or expired.", {
        missing_key: UNAUTHORIZED_DETAILS.missing,
        invalid_key: UNAUTHORIZED_DETAILS.unknown,
      }),
      "404": errorResponse("An analysis_id names no analysis of your organization (whether it exists elsewhere is not revealed).", {
        unknown_analysis: "No analysis ana_7Hc2LQ0ZfX4nB9sKdR1mPw was found for this API key's organization.",
      }, RATE_LIMIT_HEADER_REFS),
      "413": errorResponse("A file, or all files together, exceed the size limits.", {
        file_too_large: `invoice.pdf is larger than the ${config.MAX_UPLOAD_MB} MB limit per file.`,
        total_too_large: `The files together are larger than the ${MAX_COMPARE_TOTAL_MB} MB limit.`,
      }, RATE_LIMIT_HEADER_REFS),
      "415": errorResponse("The body is not multipart/form-data, or a file is not in a format we read.", {
        unsupported_format: "notes.txt: The document is not a format we read; send a PDF, DOCX, EML, PNG, JPEG, TIFF or WebP document.",
      }, RATE_LIMIT_HEADER_REFS),
      "422": errorResponse("A file is empty, unreadable, encrypted or over a limit, the presentation cannot be examined, or the Idempotency-Key was used for another request.", {
        empty: "empty.pdf: The document is empty (0 bytes).",
        idempotency_conflict: 'The Idempotency-Key "5f1c…" was already used for a different request in the last 24 hours; use a new key for a new request.',
      }, RATE_LIMIT_HEADER_REFS),
      ...sharedResponses(config),
    },
  };
}

/** Responses every keyed operation gives alike: over the rate limit, an internal error, a full reader queue. */
function sharedResponses(config: Env): Record<"429" | "500" | "503", ApiResponseDoc> {
  const retryHeaders = { ...RATE_LIMIT_HEADER_REFS, "Retry-After": { $ref: "#/components/headers/Retry-After" } };
  return {
    "429": errorResponse("Too many requests for this organization's keys of this kind, or too many of its documents waiting or being read; retry after `Retry-After` seconds.", {
      rate_limited: `Rate limit of ${config.RATE_LIMIT_SANDBOX} requests per 60 s exceeded for this organization's sandbox keys; retry after 3 s.`,
      organization_busy: `This organization already has ${config.ANALYSIS_ORG_MAX_JOBS} documents waiting or being read; retry after 6 s.`,
    }, retryHeaders),
    "500": errorResponse("An internal error; the detail names the request id to quote.", {
      internal: "Internal error (request id 3f0c2a4e-9b1d-4c8e-a0f2-5d6e7f8a9b0c).",
    }, RATE_LIMIT_HEADER_REFS),
    "503": errorResponse("Every document reader is busy and the queue is full, or the server is receiving as many uploads as it can hold at once; retry after `Retry-After` seconds.", {
      queue_full: "The server is reading as many documents as it can and its queue is full; retry after 4 s.",
      uploads_full: "The server is receiving as many uploads as it can hold at once; retry after 2 s.",
    }, retryHeaders),
  };
}

/** The OpenAPI 3.1 description of the public API, built from the code's own contracts and limits. */
export function buildOpenApiDocument(config: Env = env()): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: {
      title: "Document API",
      version: "1.0.0",
      description:
        "Shipshape reads trade documents presented under a letter of credit: it splits a submitted file into its " +
        "documents, names each one's type and extracts its key fields, and examines a presentation against its credit. Keys are issued by the operator: production " +
        "keys for live use, sandbox keys (lower limits, valid 28 days) for development.",
      license: { name: "Apache License 2.0", identifier: "Apache-2.0" },
    },
    // Relative: the server that serves this document is the one it describes, wherever it is deployed.
    servers: [{ url: "/", description: "The Shipshape server that serves this document." }],
    paths: {
      [ANALYZE_PATH]: { post: analyzeOperation(config) },
      [COMPARE_PATH]: { post: compareOperation(config) },
      [ANALYSIS_STATUS_PATH]: { get: analysisStatusOperation(sharedResponses(config)) },
    },
    components: {
      schemas: resultSchemas(),
      headers: {
        RateLimit: {
          description: 'Remaining quota and seconds until it is full again, e.g. `"sandbox";r=3;t=12` (draft-ietf-httpapi-ratelimit-headers).',
          schema: { type: "string" },
        },
        "RateLimit-Policy": {
          description: 'The key\'s quota and window in seconds, e.g. `"sandbox";q=20;w=60`.',
          schema: { type: "string" },
        },
        "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 1 } },
        "X-Analysis-Id": {
          description: `The id of the stored analysis (\`ana_…\`): send it to compareDocuments as \`${ANALYSIS_ID_FIELD}\`. Only keys of the same organization can use it.`,
          schema: { type: "string", pattern: ANALYSIS_ID_PATTERN.source },
        },
        "X-Request-Id": { description: "Identifies the request in the service's logs; quote it when reporting a problem.", schema: { type: "string" } },
      },
      securitySchemes: {
        ApiKey: {
          type: "apiKey",
          in: "header",
          name: "x-api-key",
          description: "`ss_live_…` (production) or `ss_test_…` (sandbox), issued by the operator and shown once.",
        },
      },
    },
  };
}
