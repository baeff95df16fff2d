import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import DocsPage from "@/app/docs/page";
import { RULES } from "@/lib/analysis";

describe("GET /docs: the API reference", () => {
  const html = renderToStaticMarkup(createElement(DocsPage));

  it("shows the compare operation from the OpenAPI document, with analysis_id and its 404", () => {
    expect(html).toContain('id="compare"');
    expect(html).toContain("/v1/documents/compare");
    expect(html).toContain("<code>analysis_id</code>");
    expect(html).toMatch(/<td class="status status-error">404<\/td>/);
  });

  it("lists every examination rule with its reference", () => {
    for (const rule of RULES) expect(html).toContain(`<code>${rule.id}</code>`);
    expect(html).toContain("shipment.period");
  });

  it("still documents analyze and its x-analysis-id header", () => {
    expect(html).toContain('id="analyze"');
    expect(html).toContain("X-Analysis-Id");
  });
});
