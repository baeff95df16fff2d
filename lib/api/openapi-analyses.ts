import type { Env } from "@/lib/env";
import { ANALYSIS_ID_PATTERN } from "./compare-analyses";
import type { ApiResponseDoc, OperationDoc } from "./openapi";

/** The asynchronous side of analyzeDocument: its request headers, its 202, and getAnalysis. */
export const ANALYSES_PATH = "/v1/analyses";
export const ANALYSIS_STATUS_PATH = `${ANALYSES_PATH}/{id}`;

const ERROR_REF = { $ref: "#/components/schemas/Error" };
const HEADERS = {
  RateLimit: { $ref: "#/components/headers/RateLimit" },
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimit-Policy" },
  "x-request-id": { $ref: "#/components/headers/X-Request-Id" },
};
const STATUS_SCHEMA = {
  type: "object",
  required: ["id", "status"],
  properties: {
    id: { type: "string", pattern: ANALYSIS_ID_PATTERN.source },
    status: { type: "string", enum: ["queued", "running", "done", "failed"] },
    result: { $ref: "#/components/schemas/AnalysisResult", description: "When done: exactly the array the synchronous call returns." },
    detail: { type: "string", description: "When failed: why, in the words the synchronous call would have answered." },
    progress: {
      type: "object",
      description:
        "While running, from the moment the reader knows the file's page count: pages read so far and an estimate of the time left. Pages with a text layer count as read at once; a scanned PDF page counts once OCR has read it (an image file's frames are read in one run, so its count goes from 0 to all).",
      required: ["pages_done", "pages_total", "seconds_left"],
      additionalProperties: false,
      properties: {
        pages_done: { type: "integer", minimum: 0 },
        pages_total: { type: "integer", minimum: 0 },
        seconds_left: {
          type: ["integer", "null"],
          minimum: 0,
          description: "At the pace of the pages read so far (the time to start reading is not counted); null until a page has been read. An estimate: 0 when the pace says it should be done.",
        },
      },
    },
    callback: {
      type: "object",
      description:
        "getAnalysis only, for an analysis sent with a `callback_url` (the webhook's own body has no `callback`): how the delivery of its outcome stands. " +
        "`pending`: not sent yet (the analysis is unfinished, or its delivery waits its turn); `delivering`: being posted now; `retrying`: the last attempt failed and the next is due at `next_attempt_at`; `delivered`: the receiver answered 2XX; `failed`: given up (every attempt failed, or the address was refused).",
      required: ["url", "status", "attempts", "last_status_code", "last_error", "last_attempt_at", "next_attempt_at"],
      additionalProperties: false,
      properties: {
        url: { type: "string", description: "The callback_url as sent." },
        status: { type: "string", enum: ["pending", "delivering", "retrying", "delivered", "failed"] },
        attempts: { type: "integer", minimum: 0, description: "Deliveries attempted so far." },
        last_status_code: { type: ["integer", "null"], description: "What the receiver answered the last attempt; null before any, or when no answer came (refused address, timeout, connection error)." },
        last_error: { type: ["string", "null"], description: "Why the last attempt failed, in words; null when it succeeded or before any." },
        last_attempt_at: { type: ["string", "null"], format: "date-time" },
        next_attempt_at: { type: ["string", "null"], format: "date-time", description: "When the delivery is next tried (pending or retrying); null otherwise." },
      },
    },
    corrections: {
      type: "array",
      description:
        "Only for a file uploaded to a document set in the web app: the values a checker corrected or added there. `result` then holds the splits in force (hand split corrections included) with these values.",
      items: {
        type: "object",
        required: ["split", "field", "value", "original", "corrected_by", "corrected_at"],
        properties: {
          split: { type: "integer", minimum: 0, description: "Index of the split in `result`." },
          field: { type: "string", description: "The extracted key, e.g. `gross_weight_kg`." },
          value: { description: "The corrected value, normalised as the engine writes it." },
          original: { description: "What the engine had read; null when the value was added by hand." },
          corrected_by: { type: ["string", "null"], description: "The e-mail of the member who corrected it." },
          corrected_at: { type: "string", format: "date-time" },
        },
      },
    },
  },
};

export function asyncDecisionsOf(config: Env): string[] {
  return [
    "Every analysis is a job in a durable queue: it survives a restart of the service, and a job whose reader process died is retried (with backoff) or ends failed with its reason.",
    "`Prefer: respond-async` answers 202 at once, with `Location: /v1/analyses/{id}` (and the id in `x-analysis-id`); getAnalysis then gives the status and, when done, exactly the array this call returns. Without it the call waits and answers 200 as shown.",
    "`Idempotency-Key` (1–255 printable ASCII characters): the same key with the same request (the same file name and bytes, or url, and the same `evidence`) within 24 hours answers with that request's analysis, even while it runs, without reading the document again; the same key with another request is 422.",
    `An organization may have ${config.ANALYSIS_ORG_MAX_JOBS} documents waiting or being read at once: beyond that, 429 with \`Retry-After\`. All organizations together may have ${config.ANALYSIS_QUEUE_MAX} waiting beyond the readers: beyond that, 503 with \`Retry-After\`. Both are decided before the upload is read. So is the server's budget of upload bytes being received at once (${config.UPLOAD_BYTES_IN_FLIGHT_MB} MB, counted by \`Content-Length\`; a \`url\` document's bytes count too, from its answer's length before its body is read): beyond it, 503 with \`Retry-After\`. Organizations take turns: an organization's k-th waiting document is read after every other organization's (k-1)-th.`,
    `\`callback_url\` (optional, http or https on port 80 or 443, no user name or password; 400 otherwise, or when the organization has no webhook secret yet — an admin creates it in the web app): when the analysis ends, done or failed, its getAnalysis body is POSTed there as JSON, signed in \`Shipshape-Signature\` (see the callback analysisFinished). The receiver's address must be public, as for \`url\`. A receiver that does not answer 2XX within ${config.WEBHOOK_TIMEOUT_MS / 1000} s is tried again ${config.WEBHOOK_RETRY_LIMIT} more times, waiting at least ${config.WEBHOOK_RETRY_DELAY_SECONDS} s, then twice as long each time. Deliveries carry the analysis id: a receiver that sees one twice (its 2XX was lost) should keep the first.`,
    "A file part declared as one of the formats above (e.g. `application/pdf`) whose bytes are another format is 415; other declared types (such as `application/octet-stream`) are ignored and the bytes decide.",
  ];
}

export const ASYNC_HEADER_PARAMETERS: NonNullable<OperationDoc["parameters"]> = [
  {
    name: "Prefer",
    in: "header",
    required: false,
    description: "`respond-async`: answer 202 at once with the analysis's Location instead of waiting for it (RFC 7240).",
    schema: { type: "string" },
  },
  {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description: "Makes a retried request safe: the same key and request within 24 hours give the same analysis; another request with the key is 422.",
    schema: { type: "string", minLength: 1, maxLength: 255 },
  },
];

const SIGNATURE_HEADER_NAME = "Shipshape-Signature";

/** The webhook a callback_url receives: documented as an OpenAPI callback of analyzeDocument. */
export function analysisFinishedCallback(): NonNullable<OperationDoc["callbacks"]> {
  return {
    analysisFinished: {
      "{$request.body#/callback_url}": {
        post: {
          summary: "The analysis ended (done or failed)",
          description:
            `The body is exactly what getAnalysis answers for the analysis once it ended, without \`callback\`. \`${SIGNATURE_HEADER_NAME}: t=<unix seconds>,v1=<hex>\`, where v1 is HMAC-SHA-256, keyed with your organization's webhook secret (\`whsec_…\`, shown once when an admin creates or rotates it), of the time \`t\`, a full stop, and the raw body. ` +
            "Check it with a constant-time comparison and refuse a `t` more than a few minutes old. Answer 2XX once you have it; any other answer, or none, is retried with backoff.",
          parameters: [
            {
              name: SIGNATURE_HEADER_NAME,
              in: "header",
              required: true,
              description: "`t=<unix seconds>,v1=<hex HMAC-SHA-256(secret, t + \".\" + body)>`.",
              schema: { type: "string", pattern: "^t=\\d+,v1=[0-9a-f]{64}$" },
            },
          ],
          requestBody: { required: true, content: { "application/json": { schema: STATUS_SCHEMA } } },
          responses: { "2XX": { description: "Received; not sent again." }, default: { description: "Not received: sent again later, with backoff." } },
        },
      },
    },
  };
}

export const ACCEPTED_RESPONSE: ApiResponseDoc = {
  description: "Accepted (`Prefer: respond-async`): the analysis is queued; read it at `Location`.",
  headers: {
    ...HEADERS,
    Location: { description: "Where the analysis's status is read: `/v1/analyses/{id}`.", schema: { type: "string" } },
    "x-analysis-id": { $ref: "#/components/headers/X-Analysis-Id" },
  },
  content: { "application/json": { schema: STATUS_SCHEMA, examples: { queued: { summary: "queued", value: { id: "ana_7Hc2LQ0ZfX4nB9sKdR1mPw", status: "queued" } } } } },
};

function error(description: string, name: string, detail: string): ApiResponseDoc {
  return { description, headers: HEADERS, content: { "application/json": { schema: ERROR_REF, examples: { [name]: { summary: name.replaceAll("_", " "), value: { detail } } } } } };
}

export function analysisStatusOperation(shared: Record<string, ApiResponseDoc>): OperationDoc {
  return {
    operationId: "getAnalysis",
    summary: "Read an analysis",
    description:
      "The status of an analysis of your organization (`queued`, `running`, `done` or `failed`) and, once done, its result: exactly the array analyzeDocument returns. " +
      "While it is unfinished the response carries `Retry-After` (seconds) as a polling hint, and once the reader knows the page count, `progress`: pages read, pages in all, seconds left. An analysis sent with a `callback_url` carries `callback`: where its webhook's delivery stands (status, attempts, the receiver's last answer, the next attempt). Another organization's id is 404, exactly as an id that does not exist. Polls count against the rate limit.",
    security: [{ ApiKey: [] }],
    parameters: [{ name: "id", in: "path", required: true, description: "The analysis id (`x-analysis-id`, or the end of `Location`).", schema: { type: "string" } }],
    responses: {
      "200": {
        description: "The analysis's status, and its result once done.",
        headers: HEADERS,
        content: {
          "application/json": {
            schema: STATUS_SCHEMA,
            examples: {
              running: { summary: "still being read", value: { id: "ana_7Hc2LQ0ZfX4nB9sKdR1mPw", status: "running", progress: { pages_done: 3, pages_total: 12, seconds_left: 54 } } },
              done: { summary: "done", value: { id: "ana_7Hc2LQ0ZfX4nB9sKdR1mPw", status: "done", result: [{ split: { document_type: "Commercial Invoice", pages: [1] }, extracted: { invoice_number: "INV-2031" } }] } },
              failed: { summary: "failed", value: { id: "ana_7Hc2LQ0ZfX4nB9sKdR1mPw", status: "failed", detail: "The PDF is encrypted; send it without a password." } },
            },
          },
        },
      },
      "401": error("The API key is missing, invalid, revoked or expired.", "missing_key", "Missing API key: send your key in the x-api-key header."),
      "404": error("No analysis of your organization has this id.", "unknown_analysis", "No analysis ana_7Hc2LQ0ZfX4nB9sKdR1mPw was found for this API key's organization."),
      ...shared,
    },
  };
}
