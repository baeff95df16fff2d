import { describe, expect, it } from "vitest";
import { buildBillOfLading, buildCleanPresentation, presentationOf, withFields } from "@/test/fixtures/examine/clean-presentation";
import { checkShipment, mentionsTranshipment } from "./shipment";

const rules = (docs = buildCleanPresentation()) => checkShipment(presentationOf(docs)).map((f) => `${f.rule}:${f.severity}`);
const bl = (change: Record<string, unknown>) => withFields(buildCleanPresentation(), "bill_of_lading", change);

describe("shipment terms", () => {
  it("finds nothing on a clean presentation (Bangkok meets ANY SEAPORT IN THAILAND)", () => {
    expect(rules()).toEqual([]);
  });

  it("flags shipment after the latest shipment date, using the issue date when there is no on-board notation", () => {
    expect(rules(bl({ shipped_on_board_date: "2026-04-16" }))).toEqual(["shipment.latest_date:discrepancy"]);
    expect(rules(bl({ shipped_on_board_date: undefined, date_of_issue: "2026-04-17" }))).toEqual(["shipment.latest_date:discrepancy"]);
    expect(rules(bl({ shipped_on_board_date: "2026-04-15" }))).toEqual([]);
  });

  it("flags a port of loading outside the credit's range and a wrong port of discharge", () => {
    expect(rules(bl({ port_of_loading: "HO CHI MINH CITY, VIETNAM" }))).toEqual(["shipment.port_of_loading:discrepancy"]);
    expect(rules(bl({ port_of_discharge: "DAMMAM, SAUDI ARABIA" }))).toEqual(["shipment.port_of_discharge:discrepancy"]);
    expect(rules(bl({ port_of_discharge: "JEBEL ALI PORT" }))).toEqual([]);
  });

  it("flags a B/L that copies the range instead of naming the actual port", () => {
    expect(rules(bl({ port_of_loading: "ANY SEAPORT IN THAILAND" }))).toEqual(["shipment.port_of_loading:discrepancy"]);
  });

  it("ignores a port that is OCR debris rather than a place", () => {
    expect(rules(bl({ port_of_discharge: "bk i of" }))).toEqual([]);
  });

  it("reports info when a port in a range has no readable country", () => {
    expect(rules(bl({ port_of_loading: "LAEM CHABANG" }))).toEqual(["shipment.port_of_loading:info"]);
  });

  it("flags two bills of lading on different vessels when partial shipments are prohibited", () => {
    const second = withFields([{ ...buildBillOfLading(), id: "second" }], "bill_of_lading", { bl_number: "BKKJEA260499", vessel: "WAN HAI 316", voyage: "S088" });
    expect(rules([...buildCleanPresentation(), ...second])).toEqual(["shipment.partial_shipments:discrepancy"]);
  });

  it("does not call two B/Ls on the same vessel and journey a partial shipment, even with different dates (art. 31(b))", () => {
    const second = withFields([{ ...buildBillOfLading(), id: "second" }], "bill_of_lading", { bl_number: "BKKJEA260499", shipped_on_board_date: "2026-04-06" });
    expect(rules([...buildCleanPresentation(), ...second])).toEqual([]);
  });

  it("does not count an original and its copy as two shipments, and allows partials when the credit does", () => {
    const copy = withFields([{ ...buildBillOfLading(), id: "copy" }], "bill_of_lading", { vessel: "OTHER" });
    expect(rules([...buildCleanPresentation(), ...copy])).toEqual([]);
    const second = withFields([{ ...buildBillOfLading(), id: "second" }], "bill_of_lading", { bl_number: "X2", vessel: "WAN HAI 316" });
    expect(rules(withFields([...buildCleanPresentation(), ...second], "letter_of_credit", { partial_shipments: "allowed" }))).toEqual([]);
  });

  it("warns when several B/Ls with different dates cannot be tied to one vessel", () => {
    const second = withFields([{ ...buildBillOfLading(), id: "second" }], "bill_of_lading", { bl_number: "X2", vessel: undefined, shipped_on_board_date: "2026-04-07" });
    expect(rules([...buildCleanPresentation(), ...second])).toEqual(["shipment.partial_shipments:warning"]);
  });

  it("flags transhipment shown on a B/L without containers, and accepts it for containers (art. 20(c)(ii))", () => {
    const docs = buildCleanPresentation().map((d) =>
      d.result.split.document_type === "Bill of Lading" ? { ...d, text: `${d.text}\nPORT OF TRANSHIPMENT: SINGAPORE` } : d,
    );
    expect(rules(docs)).toEqual(["shipment.transhipment:info"]);
    expect(rules(withFields(docs, "bill_of_lading", { container_numbers: undefined }).map((d) =>
      d.result.split.document_type === "Bill of Lading" ? { ...d, text: `${d.text}\nTRANSHIPMENT AT SINGAPORE` } : d,
    ))).toEqual(["shipment.transhipment:discrepancy"]);
  });

  it("ignores liberty clauses and repeated credit terms about transhipment (art. 20(d))", () => {
    expect(mentionsTranshipment("THE CARRIER RESERVES THE RIGHT TO TRANSHIP THE GOODS AT ANY PORT")).toBe(false);
    expect(mentionsTranshipment("TRANSHIPMENT: NOT ALLOWED")).toBe(false);
    expect(mentionsTranshipment("PORT OF TRANSHIPMENT: N/A")).toBe(false);
    expect(mentionsTranshipment("T/S AT PORT KELANG")).toBe(true);
  });

  it("stays silent without dates, ports or a credit", () => {
    expect(rules(bl({ shipped_on_board_date: undefined, date_of_issue: undefined, port_of_loading: undefined }))).toEqual([]);
    expect(rules(buildCleanPresentation().slice(1))).toEqual([]);
  });
});
