import { Fragment } from "react";
import { ANALYZE_PATH, type OpenApiDocument } from "@/lib/api/openapi";
import { ANALYSES_PATH, ANALYSIS_STATUS_PATH } from "@/lib/api/openapi-analyses";
import { OperationBody, ResponsesTable } from "./parts";

const ASYNC_EXAMPLES = [
  {
    title: "Queue a long document and come back for it",
    command:
      `curl -sS -i "$BASE_URL${ANALYZE_PATH}" \\\n  -H "x-api-key: $API_KEY" -H "Prefer: respond-async" \\\n  -H "Idempotency-Key: $(uuidgen)" -F file=@scanned-presentation.pdf\n` +
      `# 202, Location: ${ANALYSES_PATH}/ana_…\n` +
      `curl -sS "$BASE_URL${ANALYSES_PATH}/ana_…" -H "x-api-key: $API_KEY"`,
  },
];

/** The asynchronous side of analyze (Prefer: respond-async, getAnalysis), rendered from the same OpenAPI document. */
export function AnalysesSection({ doc }: { doc: OpenApiDocument }) {
  const operation = doc.paths[ANALYSIS_STATUS_PATH]?.get;
  if (!operation) throw new Error("the OpenAPI document lacks the getAnalysis operation");
  return (
    <>
      <h2 id="analyses">Read an analysis (asynchronous analyze)</h2>
      <p className="endpoint">
        <span className="method">GET</span> <code>{ANALYSIS_STATUS_PATH}</code>
      </p>
      <OperationBody operation={operation} />
      {ASYNC_EXAMPLES.map((example) => (
        <Fragment key={example.title}>
          <h3>{example.title}</h3>
          <pre><code>{example.command}</code></pre>
        </Fragment>
      ))}
      <h3>Responses</h3>
      <ResponsesTable operation={operation} />
    </>
  );
}
