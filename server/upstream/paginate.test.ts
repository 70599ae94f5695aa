import { describe, expect, it } from "vitest";
import { firstOf } from "./paginate";

describe("firstOf", () => {
  /** 1..n, counting how many were read. */
  function numbers(n: number) {
    const read = { count: 0 };
    async function* gen() {
      for (let i = 1; i <= n; i++) {
        read.count++;
        yield i;
      }
    }
    return { items: gen(), read };
  }

  it("takes the first max items, says whether there were more, and reads only one past them", async () => {
    const ten = numbers(10);
    expect(await firstOf(ten.items, 3)).toEqual({ items: [1, 2, 3], truncated: true });
    expect(ten.read.count).toBe(4);
    expect(await firstOf(numbers(3).items, 3)).toEqual({ items: [1, 2, 3], truncated: false });
    expect(await firstOf(numbers(0).items, 3)).toEqual({ items: [], truncated: false });
  });

  it("counts only kept items: a filtered listing is truncated only when more kept items exist", async () => {
    expect(await firstOf(numbers(10).items, 3, (n) => n % 2 === 0)).toEqual({ items: [2, 4, 6], truncated: true });
    expect(await firstOf(numbers(7).items, 3, (n) => n % 2 === 0)).toEqual({ items: [2, 4, 6], truncated: false });
  });
});
