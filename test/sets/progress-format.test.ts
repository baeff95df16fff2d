import { describe, expect, it } from "vitest";
import { describeProgress } from "@/components/sets/format";

describe("describeProgress", () => {
  it("says pages read of the file's pages, and a time left only once the reader has a pace", () => {
    expect(describeProgress({ pagesDone: 0, pagesTotal: 12, minutesLeft: null })).toBe("0 of 12 pages read");
    expect(describeProgress({ pagesDone: 3, pagesTotal: 12, minutesLeft: 4 })).toBe("3 of 12 pages read · about 4 min left");
    expect(describeProgress({ pagesDone: 11, pagesTotal: 12, minutesLeft: 0 })).toBe("11 of 12 pages read · less than a minute left");
    expect(describeProgress({ pagesDone: 1, pagesTotal: 1, minutesLeft: 0 })).toBe("1 of 1 page read");
  });
});
