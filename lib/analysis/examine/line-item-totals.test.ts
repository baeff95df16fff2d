import { describe, expect, it } from "vitest";
import { withLineItemTotals } from "./presentation";

const item = (description: string, quantity: number, unit: string) => ({ description, quantity, unit, unit_price: 1000, amount: quantity * 1000 });

describe("withLineItemTotals", () => {
  it("states an itemised invoice's goods and total quantity from its items", () => {
    const fields = { line_items: [item("DRIED WHITE BEANS, MEDIUM SIZE", 25, "MT"), item("DRIED WHITE BEANS, CROP 2024", 10.1, "MT"), item("DRIED WHITE BEANS, MEDIUM SIZE", 12.9, "mt")] };
    expect(withLineItemTotals(fields)).toMatchObject({
      description_of_goods: "DRIED WHITE BEANS, MEDIUM SIZE; DRIED WHITE BEANS, CROP 2024",
      quantity: 48,
      quantity_unit: "MT",
    });
  });

  it("keeps what the document states itself", () => {
    const fields = { description_of_goods: "DRIED WHITE BEANS", quantity: 50, quantity_unit: "MT", line_items: [item("BEANS", 25, "MT")] };
    expect(withLineItemTotals(fields)).toEqual(fields);
  });

  it("sums no quantity across different units or items without one", () => {
    expect(withLineItemTotals({ line_items: [item("BEANS", 25, "MT"), item("BAGS", 100, "PCS")] })).not.toHaveProperty("quantity");
    expect(withLineItemTotals({ line_items: [item("BEANS", 25, "MT"), { description: "FREIGHT", amount: 900 }] })).not.toHaveProperty("quantity");
    expect(withLineItemTotals({ invoice_number: "A-1" })).toEqual({ invoice_number: "A-1" });
  });
});
