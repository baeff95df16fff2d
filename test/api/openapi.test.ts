import { describe, expect, it } from "vitest";
import { GET } from "@/app/v1/openapi.json/route";
import { DOCUMENT_TYPE_IDS, DOCUMENT_TYPES } from "@/lib/analysis";
import { STATUS_BY_CODE } from "@/lib/errors";
import { ANALYZE_PATH, buildOpenApiDocument } from "@/lib/api/openapi";
import { splitSchemaName, type JsonSchema } from "@/lib/api/openapi-schemas";
import { env } from "@/lib/env";

const doc = buildOpenApiDocument(env());
const operation = doc.paths[ANALYZE_PATH]?.post;

/** Every "$ref" string anywhere in a JSON value. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, inner]) => (key === "$ref" ? [String(inner)] : refsIn(inner)));
  }
  return [];
}

describe("GET /v1/openapi.json", () => {
  it("serves the document as JSON", async () => {
    const response = GET();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it("is OpenAPI 3.1 titled Document API 1.0.0", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: "Document API", version: "1.0.0" });
  });

  it("documents every status code the endpoint can answer", () => {
    // Analyze names no stored resource, so it never answers 404 (compare does: ids of stored analyses).
    // 202: Prefer: respond-async.
    // 403 and 409 are the web app's (a member's role, a set's state); a keyed route answers neither.
    const codes = ["200", "202", ...Object.values(STATUS_BY_CODE).filter((s) => ![403, 404, 409].includes(s)).map(String)].sort();
    expect(Object.keys(operation?.responses ?? {}).sort()).toEqual(codes);
    expect(operation?.responses["202"]?.headers).toHaveProperty("Location");
    for (const [status, response] of Object.entries(operation?.responses ?? {})) {
      if (status === "200" || status === "202") continue;
      expect(response.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
      for (const example of Object.values(response.content["application/json"].examples ?? {})) {
        expect(Object.keys(example.value as object)).toEqual(["detail"]);
      }
    }
    expect(operation?.responses["429"]?.headers).toHaveProperty("Retry-After");
    expect(operation?.responses["200"]?.headers).toHaveProperty("RateLimit");
    expect(operation?.responses["200"]?.headers).toHaveProperty("RateLimit-Policy");
  });

  it("names the x-api-key header scheme, the multipart body and the evidence option", () => {
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: "apiKey", in: "header", name: "x-api-key" });
    expect(operation?.security).toEqual([{ ApiKey: [] }]);
    const form = operation?.requestBody?.content["multipart/form-data"].schema as JsonSchema;
    expect(form.properties).toMatchObject({ file: { type: "string", format: "binary" }, url: { type: "string", format: "uri" } });
    expect(form.oneOf).toEqual([{ required: ["file"] }, { required: ["url"] }]);
    expect(operation?.parameters).toEqual([
      expect.objectContaining({ name: "evidence", in: "query", schema: { type: "boolean", default: false } }),
      expect.objectContaining({ name: "Prefer", in: "header" }),
      expect.objectContaining({ name: "Idempotency-Key", in: "header" }),
    ]);
  });

  it("documents getAnalysis: the status, the result once done, and 404 for another organization's id", () => {
    const get = doc.paths["/v1/analyses/{id}"]?.get;
    expect(get?.operationId).toBe("getAnalysis");
    expect(get?.parameters).toEqual([expect.objectContaining({ name: "id", in: "path", required: true })]);
    expect(Object.keys(get?.responses ?? {}).sort()).toEqual(["200", "401", "404", "429", "500", "503"]);
    expect(get?.responses["404"]?.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
  });

  it("states the limits in force", () => {
    const { MAX_UPLOAD_MB, RATE_LIMIT_PRODUCTION, RATE_LIMIT_SANDBOX } = env();
    expect(operation?.description).toContain(`larger than ${MAX_UPLOAD_MB} MB are 413`);
    expect(operation?.description).toContain(`${RATE_LIMIT_PRODUCTION} for production keys, ${RATE_LIMIT_SANDBOX} for sandbox keys`);
  });

  it("has one result schema per document type, generated from the extraction schema", () => {
    const oneOf = doc.components.schemas.SplitResult?.oneOf as { $ref: string }[];
    expect(oneOf).toHaveLength(DOCUMENT_TYPE_IDS.length);
    for (const id of DOCUMENT_TYPE_IDS) {
      const schema = doc.components.schemas[splitSchemaName(id)] as { properties: Record<string, JsonSchema> };
      expect(oneOf).toContainEqual({ $ref: `#/components/schemas/${splitSchemaName(id)}` });
      const splitRef = `#/components/schemas/${splitSchemaName(id)}Split`;
      expect(schema.properties.split).toEqual({ $ref: splitRef });
      const split = doc.components.schemas[`${splitSchemaName(id)}Split`] as { properties: { document_type: JsonSchema } };
      expect(split.properties.document_type).toEqual({ type: "string", const: DOCUMENT_TYPES[id].label });
      // The discriminator maps the type's label to that same split schema.
      expect((doc.components.schemas.Split!.discriminator as { mapping: Record<string, string> }).mapping[DOCUMENT_TYPES[id].label]).toBe(splitRef);
      const extracted = schema.properties.extracted as { properties: Record<string, JsonSchema>; additionalProperties: boolean };
      expect(Object.keys(extracted.properties).sort()).toEqual(Object.keys(DOCUMENT_TYPES[id].fields).sort());
      expect(extracted.additionalProperties).toBe(false);
    }
    const bl = doc.components.schemas.BillOfLading as { properties: { extracted: { properties: Record<string, JsonSchema> } } };
    expect(bl.properties.extracted.properties.shipped_on_board_date).toMatchObject({ type: "string", format: "date" });
    expect(bl.properties.extracted.properties.freight_terms).toEqual({ type: "string", enum: ["prepaid", "collect"] });
    expect(bl.properties.extracted.properties.container_numbers).toMatchObject({ type: "array", items: { type: "string" } });
  });

  it("names its license and its server, relative to where it is served", () => {
    expect(doc.info.license).toEqual({ name: "Apache License 2.0", identifier: "Apache-2.0" });
    expect(doc.servers).toEqual([{ url: "/", description: expect.any(String) }]);
  });

  it("tells the document types apart with a discriminator on document_type", () => {
    const split = doc.components.schemas.Split as { oneOf: unknown[]; discriminator: { propertyName: string; mapping: Record<string, string> } };
    expect(split.discriminator.propertyName).toBe("document_type");
    expect(Object.keys(split.discriminator.mapping).sort()).toEqual(DOCUMENT_TYPE_IDS.map((id) => DOCUMENT_TYPES[id].label).sort());
    expect(split.oneOf).toHaveLength(DOCUMENT_TYPE_IDS.length);
  });

  it("resolves every $ref it uses", () => {
    for (const ref of refsIn(doc)) {
      const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
      expect(doc.components[section as keyof typeof doc.components]).toHaveProperty([name as string]);
    }
  });
});
