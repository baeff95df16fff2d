import { RULES } from "@/lib/analysis";
import { ANALYSIS_ID_FIELD } from "@/lib/api/compare-analyses";
import { ANALYSIS_ID_HEADER, COMPARE_PATH, type OpenApiDocument } from "@/lib/api/openapi";
import { OperationSection, Text } from "./parts";

const COMPARE_EXAMPLES = [
  {
    title: "Upload the credit and the presented documents",
    command: `curl -sS "$BASE_URL${COMPARE_PATH}" \\\n  -H "x-api-key: $API_KEY" \\\n  -F file=@credit.pdf -F file=@amendment.pdf -F file=@documents.pdf \\\n  -F presentation_date=2026-04-20`,
  },
  {
    title: "Examine documents analysed earlier, by the id analyze returned",
    command:
      `ID=$(curl -sS -D - -o /dev/null "$BASE_URL/v1/documents/analyze" \\\n  -H "x-api-key: $API_KEY" -F file=@credit.pdf | awk 'tolower($1)=="${ANALYSIS_ID_HEADER}:" {print $2}' | tr -d '\\r')\n` +
      `curl -sS "$BASE_URL${COMPARE_PATH}" \\\n  -H "x-api-key: $API_KEY" \\\n  -F ${ANALYSIS_ID_FIELD}=$ID -F file=@documents.pdf`,
  },
];

/** The compare operation of the API reference, rendered from the same OpenAPI document, and the rules it applies. */
export function CompareSection({ doc }: { doc: OpenApiDocument }) {
  const operation = doc.paths[COMPARE_PATH]?.post;
  if (!operation) throw new Error("the OpenAPI document lacks the compare operation");
  return (
    <>
      <OperationSection
        id="compare"
        title="Examine a presentation (compare)"
        method="POST"
        path={COMPARE_PATH}
        operation={operation}
        examples={COMPARE_EXAMPLES}
      />
      <h3 id="rules">Examination rules</h3>
      <p className="muted">Every finding names one of these rules and its UCP 600 / ISBP 821 reference.</p>
      <table>
        <thead><tr><th>Rule</th><th>Reference</th><th>Severity</th><th>Checks</th></tr></thead>
        <tbody>
          {RULES.map((rule) => (
            <tr key={rule.id}>
              <td><code>{rule.id}</code></td>
              <td>{rule.reference}</td>
              <td>{rule.severity}</td>
              <td><Text>{rule.title}</Text></td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
