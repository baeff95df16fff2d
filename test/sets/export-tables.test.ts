import { describe, expect, it } from "vitest";
import { toCsv } from "@/lib/sets/export/tables";

describe("toCsv", () => {
  it("quotes what needs quoting and defuses text a spreadsheet would run as a formula", () => {
    const csv = toCsv([
      ["Fact", "Status", "Reason"],
      ["Consignee", 'TO "ORDER", OF BANK', "line\nbreak"],
      ['=HYPERLINK("http://evil.test")', "+1", -5],
    ]);
    expect(csv).toBe(`Fact,Status,Reason\r\nConsignee,"TO ""ORDER"", OF BANK","line\nbreak"\r\n"'=HYPERLINK(""http://evil.test"")",'+1,-5\r\n`);
  });
});
