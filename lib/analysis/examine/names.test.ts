import { describe, expect, it } from "vitest";
import { coreName, isBlankOrder, readParty, sameParty } from "./names";

const same = (a: string, b: string) => sameParty(a, b, 0.88);

describe("party names", () => {
  it("sets aside case, punctuation, & and legal forms", () => {
    expect(coreName("Mitsui & Co., Ltd.")).toBe("MITSUI");
    expect(coreName("MARINI S.p.A.")).toBe("MARINI");
    expect(same("GREEN OASIS CO. LLC", "GREEN OASIS COMPANY L.L.C.")).toBe(true);
    expect(same("MÜLLER GMBH", "MULLER G.M.B.H.")).toBe(true);
  });

  it("sets aside an address, a to-order prefix and a trailing country", () => {
    expect(same("MITSUI AND CO LTD 2-1, OTEMACHI 1-CHOME", "MITSUI & CO., LTD.")).toBe(true);
    expect(same("GREEN OASIS CO LLC PO BOX 1297", "GREEN OASIS CO. LLC")).toBe(true);
    expect(same("TO THE ORDER OF KOREA TRADE FINANCE BANK, KOREA", "KOREA TRADE FINANCE BANK")).toBe(true);
    expect(same("PEARL GULF AGRI SUPPLIES LLC, SHARJAH, UAE", "PEARL GULF AGRI SUPPLIES LLC")).toBe(true);
    expect(same("PEARL GULF AGRI SUPPLIES LLC, SHARJAH, UAE", "GULF PEARL TRADING LLC")).toBe(false);
  });

  it("tolerates OCR noise but not another company", () => {
    expect(same("MITSUI & CO., LT).", "MITSUI AND CO LTD")).toBe(true);
    expect(same("ACME GMBH", "BETA GMBH")).toBe(false);
    expect(same("ABC TRADING LLC", "ABC LLC")).toBe(false);
    expect(same("", "ABC")).toBe(false);
  });

  it("reads form captions returned in place of a name as no name", () => {
    expect(readParty({ notify_party: "(COMPLETE NAME AND ADDRESS}" }, "notify_party")).toBeUndefined();
    expect(readParty({ consignee: "Print ORIGINAL ar COPY" }, "consignee")).toBeUndefined();
    expect(readParty({ notify_party: "(No claim shall attach for failure to notify)" }, "notify_party")).toBeUndefined();
    expect(readParty({ consignee: "GREEN OASIS CO. LLC" }, "consignee")).toBe("GREEN OASIS CO. LLC");
  });

  it("recognises consignment to order without a named party", () => {
    expect(isBlankOrder("TO ORDER")).toBe(true);
    expect(isBlankOrder("to the order of the shipper")).toBe(true);
    expect(isBlankOrder("TO ORDER OF ABC BANK")).toBe(false);
  });
});
