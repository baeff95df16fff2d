import { ANALYZE_PATH, type OpenApiDocument } from "@/lib/api/openapi";
import { ANALYSES_PATH, ANALYSIS_STATUS_PATH } from "@/lib/api/openapi-analyses";
import { OperationSection } from "./parts";

const ASYNC_EXAMPLES = [
  {
    title: "Queue a long document and come back for it",
    command:
      `curl -sS -i "$BASE_URL${ANALYZE_PATH}" \\\n  -H "x-api-key: $API_KEY" -H "Prefer: respond-async" \\\n  -H "Idempotency-Key: $(uuidgen)" -F file=@scanned-presentation.pdf\n` +
      `# 202, Location: ${ANALYSES_PATH}/ana_…\n` +
      `curl -sS "$BASE_URL${ANALYSES_PATH}/ana_…" -H "x-api-key: $API_KEY"`,
  },
  {
    title: "Be told when it is done (webhook), and check the signature",
    command:
      `curl -sS "$BASE_URL${ANALYZE_PATH}" -H "x-api-key: $API_KEY" -H "Prefer: respond-async" \\\n  -F file=@scanned-presentation.pdf -F callback_url=https://erp.example.com/shipshape-hook\n` +
      "# The receiver gets the getAnalysis body with Shipshape-Signature: t=<unix seconds>,v1=<hex>.\n" +
      "# Node: v1 === crypto.createHmac('sha256', WEBHOOK_SECRET).update(t + '.' + rawBody).digest('hex')",
  },
];

/** The asynchronous side of analyze (Prefer: respond-async, getAnalysis), rendered from the same OpenAPI document. */
export function AnalysesSection({ doc }: { doc: OpenApiDocument }) {
  const operation = doc.paths[ANALYSIS_STATUS_PATH]?.get;
  if (!operation) throw new Error("the OpenAPI document lacks the getAnalysis operation");
  return (
    <OperationSection
      id="analyses"
      title="Read an analysis (asynchronous analyze)"
      method="GET"
      path={ANALYSIS_STATUS_PATH}
      operation={operation}
      examples={ASYNC_EXAMPLES}
    />
  );
}
