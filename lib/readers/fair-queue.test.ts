import { describe, expect, it } from "vitest";
import { FairQueue } from "./fair-queue";

function drain<T>(queue: FairQueue<T>): T[] {
  const items: T[] = [];
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) items.push(item);
  return items;
}

describe("FairQueue", () => {
  it("is first in first out for one tenant", () => {
    const queue = new FairQueue<number>();
    [1, 2, 3].forEach((n) => queue.push("a", n));
    expect(queue.length).toBe(3);
    expect(drain(queue)).toEqual([1, 2, 3]);
    expect(queue.length).toBe(0);
  });

  it("takes tenants in turn, each in its own arrival order", () => {
    const queue = new FairQueue<string>();
    ["a1", "a2", "a3"].forEach((item) => queue.push("a", item));
    queue.push("b", "b1");
    queue.push("c", "c1");
    queue.push("b", "b2");
    expect(drain(queue)).toEqual(["a1", "b1", "c1", "a2", "b2", "a3"]);
  });

  it("sends a tenant that comes back after its queue emptied to the back of the line", () => {
    const queue = new FairQueue<string>();
    queue.push("a", "a1");
    queue.push("b", "b1");
    expect(queue.shift()).toBe("a1");
    queue.push("a", "a2");
    queue.push("b", "b2");
    expect(drain(queue)).toEqual(["b1", "a2", "b2"]);
  });
});
