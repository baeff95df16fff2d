import { describe, expect, it } from "vitest";
import { comparePorts, isPortRange, portMeetsCredit } from "./ports";

describe("ports", () => {
  it("meets a country range with a port in that country only", () => {
    expect(portMeetsCredit("ANY SEAPORT IN JAPAN", "YOKOHAMA, JAPAN")).toBe("same");
    expect(portMeetsCredit("ANY SEAPORT IN JAPAN", "BUSAN, KOREA")).toBe("different");
    expect(portMeetsCredit("ANY PORT IN CHINA", "SHANGHAI")).toBe("unknown");
  });

  it("needs the place named inside a range", () => {
    expect(portMeetsCredit("ANY SEAPORT IN ABU DHABI, UAE", "ABU DHABI SEAPORT, U.A.E")).toBe("same");
    expect(portMeetsCredit("ANY SEAPORT IN ABU DHABI, UAE", "JEBEL ALI, UAE")).toBe("unknown");
  });

  it("compares named ports by their name words", () => {
    expect(comparePorts("YOKOHAMA, JAPAN", "YOKOHAMA PORT")).toBe("same");
    expect(comparePorts("SHANGHAI, CHINA", "NINGBO, CHINA")).toBe("different");
    expect(comparePorts("PORT KHALID, SHARJAH, UAE", "PORT KHALID, SHARJAH, U.A.E.")).toBe("same");
    expect(isPortRange("ANY EUROPEAN PORT")).toBe(true);
    expect(comparePorts("YO IKOHAMA, J PAN", "YOKOHAMA, JAPAN")).toBe("same");
    expect(comparePorts("BUSAN", "PUSAN")).toBe("different");
    expect(portMeetsCredit("ANY EUROPEAN PORT", "HAMBURG, GERMANY")).toBe("unknown");
  });
});
