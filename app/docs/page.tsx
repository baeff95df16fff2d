import type { Metadata } from "next";
import { Fragment } from "react";
import { ANALYZE_PATH, buildOpenApiDocument } from "@/lib/api/openapi";
import type { JsonSchema } from "@/lib/api/openapi-schemas";
import { AnalysesSection } from "./analyses-section";
import { CompareSection } from "./compare-section";
import { kindText, OperationBody, ResponsesTable, schemaByRef, Text } from "./parts";

export const metadata: Metadata = { title: "Document API reference — Shipshape" };
// Limits come from the running server's environment, not the build machine's.
export const dynamic = "force-dynamic";

const CURL_EXAMPLES = [
  {
    title: "Upload a file",
    command: `curl -sS "$BASE_URL${ANALYZE_PATH}" \\\n  -H "x-api-key: $API_KEY" \\\n  -F file=@presentation.pdf`,
  },
  {
    title: "Let the service fetch a url",
    command: `curl -sS "$BASE_URL${ANALYZE_PATH}" \\\n  -H "x-api-key: $API_KEY" \\\n  -F url=https://example.com/documents/bl-invoice.pdf`,
  },
  {
    title: "Ask for evidence (page, box and text of every value)",
    command: `curl -sS "$BASE_URL${ANALYZE_PATH}?evidence=true" \\\n  -H "x-api-key: $API_KEY" \\\n  -F file=@presentation.pdf`,
  },
  {
    title: "See the status and the rate-limit headers",
    command: `curl -sS -i "$BASE_URL${ANALYZE_PATH}" \\\n  -H "x-api-key: $API_KEY" \\\n  -F file=@invoice.docx`,
  },
];

export default function DocsPage() {
  const doc = buildOpenApiDocument();
  const operation = doc.paths[ANALYZE_PATH]?.post;
  if (!operation) throw new Error("the OpenAPI document lacks the analyze operation");
  const scheme = doc.components.securitySchemes.ApiKey;
  const splits = ((doc.components.schemas.SplitResult?.oneOf ?? []) as { $ref: string }[]).map((ref) =>
    schemaByRef(doc, ref.$ref),
  );

  return (
    <main className="page">
      <h1>
        {doc.info.title} <span className="muted">v{doc.info.version}</span>
      </h1>
      <p className="lead">{doc.info.description}</p>
      <p>
        Machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI {doc.openapi}).
      </p>
      <ul className="toc">
        <li><a href="#auth">Authentication</a></li>
        <li><a href="#analyze">Analyze a document</a></li>
        <li><a href="#examples">curl examples</a></li>
        <li><a href="#responses">Responses</a></li>
        <li><a href="#analyses">Read an analysis (asynchronous analyze)</a></li>
        <li><a href="#compare">Examine a presentation (compare)</a></li>
        <li><a href="#headers">Headers</a></li>
        <li><a href="#types">Document types and fields</a></li>
      </ul>

      <h2 id="auth">Authentication</h2>
      <p>
        Send your key in the <code>{scheme?.name}</code> header of every request. <Text>{scheme?.description ?? ""}</Text>
      </p>

      <h2 id="analyze">Analyze a document</h2>
      <p className="endpoint">
        <span className="method">POST</span> <code>{ANALYZE_PATH}</code>
      </p>
      <OperationBody operation={operation} />

      <h2 id="examples">curl examples</h2>
      <p className="muted">Set <code>BASE_URL</code> (e.g. http://localhost:3000) and <code>API_KEY</code> first.</p>
      {CURL_EXAMPLES.map((example) => (
        <Fragment key={example.title}>
          <h3>{example.title}</h3>
          <pre><code>{example.command}</code></pre>
        </Fragment>
      ))}

      <h2 id="responses">Responses</h2>
      <ResponsesTable operation={operation} />

      <AnalysesSection doc={doc} />

      <CompareSection doc={doc} />

      <h2 id="headers">Headers</h2>
      <table>
        <thead><tr><th>Header</th><th>Description</th></tr></thead>
        <tbody>
          {Object.entries(doc.components.headers).map(([name, header]) => (
            <tr key={name}>
              <td><code>{name}</code></td>
              <td><Text>{header.description}</Text></td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2 id="types">Document types and fields</h2>
      <p>
        <Text>{String(doc.components.schemas.SplitResult?.description ?? "")}</Text>
      </p>
      {splits.map((split) => {
        const extracted = ((split.properties as Record<string, JsonSchema>).extracted ?? {}) as JsonSchema;
        const keys = Object.entries((extracted.properties ?? {}) as Record<string, JsonSchema>);
        return (
          <details key={String(split.title)}>
            <summary>
              {String(split.title)} <span className="muted">({keys.length} fields)</span>
            </summary>
            <p>{String(split.description)}</p>
            {keys.length > 0 && (
              <table>
                <thead><tr><th>Key in <code>extracted</code></th><th>Value</th></tr></thead>
                <tbody>
                  {keys.map(([key, schema]) => (
                    <tr key={key}>
                      <td><code>{key}</code></td>
                      <td>{kindText(schema)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </details>
        );
      })}
    </main>
  );
}
