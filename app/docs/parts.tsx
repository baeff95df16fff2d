import { Fragment } from "react";
import type { ApiResponseDoc, OpenApiDocument, OperationDoc } from "@/lib/api/openapi";
import type { JsonSchema } from "@/lib/api/openapi-schemas";

// Pieces of the API reference page shared by its operations.

/** Renders `backticked` spans of the OpenAPI descriptions as code. */
export function Text({ children }: { children: string }) {
  return (
    <>
      {children.split("`").map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <Fragment key={i}>{part}</Fragment>))}
    </>
  );
}

export function schemaByRef(doc: OpenApiDocument, ref: unknown): JsonSchema {
  const name = String(ref).split("/").pop() ?? "";
  return doc.components.schemas[name] ?? {};
}

/** A short reading of a value's JSON Schema: "date", "list of strings", "one of …". */
export function kindText(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => `"${String(v)}"`).join(", ")}`;
  if (schema.format === "date") return "date (YYYY-MM-DD)";
  if (schema.type === "array") {
    const items = (schema.items ?? {}) as JsonSchema;
    if (items.type === "object") return `list of objects (${Object.keys(items.properties ?? {}).join(", ")})`;
    return `list of ${String(items.type)}s`;
  }
  return String(schema.type);
}

function ResponseRow({ status, response }: { status: string; response: ApiResponseDoc }) {
  const examples = Object.values(response.content["application/json"].examples ?? {});
  return (
    <tr>
      <td className={`status ${status.startsWith("2") ? "status-ok" : "status-error"}`}>{status}</td>
      <td>
        <Text>{response.description}</Text>
        <div className="muted">Headers: {Object.keys(response.headers ?? {}).join(", ")}</div>
      </td>
      <td>
        {examples.map((example) => (
          <pre key={example.summary}>
            <code>{JSON.stringify(example.value, null, 2)}</code>
          </pre>
        ))}
      </td>
    </tr>
  );
}


/** How a form field is sent: "file", "string, repeatable", "date (YYYY-MM-DD)". */
function fieldTypeOf(schema: JsonSchema): string {
  if (schema.type === "array") {
    const items = (schema.items ?? {}) as JsonSchema;
    return items.format === "binary" ? "file, repeatable" : `${String(items.type)}, repeatable`;
  }
  if (schema.format === "binary") return "file";
  return schema.format === "date" ? "date (YYYY-MM-DD)" : String(schema.type);
}

/**
 * An operation's introduction, its multipart form fields and its rules and
 * limits, as the OpenAPI description states them (first paragraph, then one
 * decision per line).
 */
export function OperationBody({ operation }: { operation: OperationDoc }) {
  const [intro = "", ...rest] = operation.description.split("\n\n");
  const decisions = rest.join("\n").split("\n").map((line) => line.replace(/^- /, "")).filter((line) => line !== "");
  const form = operation.requestBody?.content["multipart/form-data"].schema ?? {};
  const fields = Object.entries((form.properties ?? {}) as Record<string, JsonSchema>);
  return (
    <>
      <p>{intro}</p>
      {fields.length > 0 && <h3>Form fields (multipart/form-data)</h3>}
      {fields.length > 0 && <table>
        <thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead>
        <tbody>
          {fields.map(([name, schema]) => (
            <tr key={name}>
              <td><code>{name}</code></td>
              <td>{fieldTypeOf(schema)}</td>
              <td><Text>{String(schema.description ?? "")}</Text></td>
            </tr>
          ))}
        </tbody>
      </table>}
      {decisions.length > 0 && <h3>Rules and limits</h3>}
      {decisions.length > 0 && <ul>
        {decisions.map((line) => (
          <li key={line}><Text>{line}</Text></li>
        ))}
      </ul>}
    </>
  );
}

/** An operation's responses: status, meaning and an example body each. */
export function ResponsesTable({ operation }: { operation: OperationDoc }) {
  return (
    <table>
      <thead><tr><th>Status</th><th>Meaning</th><th>Example body</th></tr></thead>
      <tbody>
        {Object.entries(operation.responses).map(([status, response]) => (
          <ResponseRow key={status} status={status} response={response} />
        ))}
      </tbody>
    </table>
  );
}

/** A curl example shown under an operation. */
export interface CurlExample {
  title: string;
  command: string;
}

/** One operation of the reference: its heading, method and path, body, examples and responses. */
export function OperationSection(props: { id: string; title: string; method: string; path: string; operation: OperationDoc; examples: readonly CurlExample[] }) {
  const { id, title, method, path, operation, examples } = props;
  return (
    <>
      <h2 id={id}>{title}</h2>
      <p className="endpoint">
        <span className="method">{method}</span> <code>{path}</code>
      </p>
      <OperationBody operation={operation} />
      {examples.map((example) => (
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
