import SwaggerParser from "@apidevtools/swagger-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { analyzeDocument } from "@/lib/analysis";
import { analysisStatusBody } from "@/lib/api/analysis-status";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { env } from "@/lib/env";
import { generatePacket, PRESENTATION_TYPES } from "@/test/fixtures/generator";

/**
 * The OpenAPI document as a client's tools read it: a maintained validator
 * accepts it, and the engine's real answers (what the API returns) satisfy
 * its result schema, each split matching the schema its document_type's
 * discriminator names.
 */
type Schema = Record<string, unknown>;
let schemas: Record<string, Schema>;
let statusSchema: Schema;
let answer: unknown[];
type Content = { schema: Schema; examples?: Record<string, { value: unknown }> };
let paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, Content> }> }>>;

beforeAll(async () => {
  // validate() also resolves every $ref; it mutates its input, so it gets its own copy.
  type Validated = { components: { schemas: Record<string, Schema> }; paths: typeof paths };
  const validated = (await SwaggerParser.validate(structuredClone(buildOpenApiDocument(env())) as never)) as unknown as Validated;
  schemas = validated.components.schemas;
  paths = validated.paths;
  statusSchema = paths["/v1/analyses/{id}"]!.get!.responses["200"]!.content!["application/json"]!.schema;
  const packet = await generatePacket({ seed: 11, copies: 1, types: [...PRESENTATION_TYPES, "letter_of_credit"] });
  answer = JSON.parse(JSON.stringify(await analyzeDocument(packet.pdf, { evidence: true })));
});

// Not strict: OpenAPI's own keywords (discriminator, example) are not JSON Schema's.
const ajv = new Ajv2020({ strict: false, validateFormats: false });

/** A validator for one component schema of the (dereferenced) document, compiled once. */
function validatorOf(name: string) {
  if (!ajv.getSchema(name)) ajv.addSchema(schemas[name] as Schema, name);
  return ajv.getSchema(name)!;
}

describe("the OpenAPI document and real answers", () => {
  it("is a valid OpenAPI 3.1 document to swagger-parser", () => {
    expect(Object.keys(schemas)).toContain("AnalysisResult");
  });

  it("describes the engine's answer to a whole presentation: every split satisfies AnalysisResult", () => {
    expect(answer.length).toBeGreaterThanOrEqual(6);
    const validate = validatorOf("AnalysisResult");
    expect(validate(answer), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });

  it("maps each split's document_type to the one split schema it satisfies", () => {
    const { mapping } = (schemas.Split as { discriminator: { mapping: Record<string, string> } }).discriminator;
    const names = Object.values(mapping).map((ref) => ref.split("/").pop() as string);
    for (const part of answer as { split: { document_type: string } }[]) {
      const matching = names.filter((name) => validatorOf(name)(part.split));
      expect(matching, part.split.document_type).toEqual([mapping[part.split.document_type]?.split("/").pop()]);
    }
  });

  it("shows an example of every answer, each satisfying its schema", () => {
    let checked = 0;
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          for (const content of Object.values(response.content ?? {})) {
            const name = `${method.toUpperCase()} ${path} ${status}`;
            expect(Object.keys(content.examples ?? {}), name).not.toHaveLength(0);
            const validate = ajv.compile(content.schema);
            for (const [example, { value }] of Object.entries(content.examples ?? {})) {
              expect(validate(value), `${name} ${example}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
              checked++;
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it("describes getAnalysis's answer while running: its progress with and without an estimate", () => {
    const validate = ajv.compile(statusSchema);
    const now = new Date("2026-11-26T12:00:00Z");
    const running = { id: "ana_7Hc2LQ0ZfX4nB9sKdR1mPw", status: "running" as const, errorDetail: null, pagesDone: 3, pagesTotal: 12 };
    const estimated = analysisStatusBody({ ...running, estimatedEndAt: new Date("2026-11-26T12:01:30Z") }, undefined, now);
    expect(estimated.progress).toEqual({ pages_done: 3, pages_total: 12, seconds_left: 90 });
    const first = analysisStatusBody({ ...running, pagesDone: 0, estimatedEndAt: null }, undefined, now);
    expect(first.progress).toEqual({ pages_done: 0, pages_total: 12, seconds_left: null });
    for (const body of [estimated, first, analysisStatusBody({ ...running, pagesTotal: null }, undefined, now)]) {
      expect(validate(body), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    }
    expect(validate({ ...estimated, progress: { pages_done: 3 } })).toBe(false);
  });

  it("describes evidence read where a checker taught the layout", () => {
    const validate = validatorOf("AnalysisResult");
    const invoice = (answer as { split: { document_type: string }; evidence: Record<string, object> }[]).find((p) => p.split.document_type === "Commercial Invoice")!;
    const [field, evidence] = Object.entries(invoice.evidence)[0]!;
    const taught = (value: object) => [{ ...invoice, evidence: { ...invoice.evidence, [field]: { ...evidence, taught: value } } }];
    expect(validate(taught({ layout: "lay_1", source: "invoice-a.pdf p. 1 in set LC 1" })), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(validate(taught({ layout: "lay_1" }))).toBe(false);
  });

  it("refuses an answer whose extracted keys do not belong to its document type", () => {
    const validate = validatorOf("AnalysisResult");
    const invoice = (answer as { split: { document_type: string } }[]).find((p) => p.split.document_type === "Commercial Invoice");
    expect(invoice).toBeDefined();
    expect(validate([{ ...invoice, extracted: { vessel: "MSC AURORA", shipped_on_board_date: "2026-03-14" } }])).toBe(false);
  });
});
