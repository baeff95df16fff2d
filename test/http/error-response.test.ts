import { afterEach, describe, expect, it, vi } from "vitest";
import { AnalysisError, ExaminationError } from "@/lib/analysis";
import { ApiError, type ErrorCode, STATUS_BY_CODE } from "@/lib/errors";
import { responseOfError } from "@/lib/http/error-response";
import { IdempotencyConflictError, OrganizationBusyError } from "@/lib/jobs/errors";
import { QueueFullError } from "@/lib/readers/queue-full-error";

const REQUEST_ID = "req_error_table";

async function answerOf(error: unknown): Promise<{ status: number; body: unknown; retryAfter: string | null }> {
  const response = responseOfError(error, REQUEST_ID);
  return { status: response.status, body: await response.json(), retryAfter: response.headers.get("retry-after") };
}

describe("one error vocabulary: every error a route may meet, to its status and {detail}", () => {
  afterEach(() => vi.restoreAllMocks());

  it("answers an ApiError of every code but internal with its table status and its detail as the whole body", async () => {
    for (const [code, status] of Object.entries(STATUS_BY_CODE) as [ErrorCode, number][]) {
      if (code === "internal") continue;
      expect(await answerOf(new ApiError(code, `refused: ${code}`))).toEqual({ status, body: { detail: `refused: ${code}` }, retryAfter: null });
    }
  });

  it("maps the lower layers' errors: the engine's refusals and examinations, a full queue, a busy organization, a reused key", async () => {
    expect(await answerOf(new AnalysisError("unsupported_format", "Not a format we read."))).toMatchObject({ status: 415, body: { detail: "Not a format we read." } });
    expect(await answerOf(new AnalysisError("encrypted", "The PDF is encrypted."))).toMatchObject({ status: 422, body: { detail: "The PDF is encrypted." } });
    expect(await answerOf(new ExaminationError("presentationDate must be a date written YYYY-MM-DD."))).toEqual({
      status: 422,
      body: { detail: "presentationDate must be a date written YYYY-MM-DD." },
      retryAfter: null,
    });
    expect(await answerOf(new QueueFullError(7))).toMatchObject({ status: 503, retryAfter: "7" });
    expect(await answerOf(new OrganizationBusyError(4, 9))).toMatchObject({ status: 429, retryAfter: "9", body: { detail: new OrganizationBusyError(4, 9).message } });
    expect(await answerOf(new IdempotencyConflictError("k1"))).toMatchObject({ status: 422, body: { detail: new IdempotencyConflictError("k1").message } });
  });

  it("answers anything else, and an internal ApiError, with a 500 naming only the request id", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    for (const error of [new Error("SELECT secret FROM users"), new ApiError("internal", "stack and SQL")]) {
      expect(await answerOf(error)).toEqual({ status: 500, body: { detail: `Internal error (request id ${REQUEST_ID}).` }, retryAfter: null });
    }
  });
});
