import { describe, expect, it } from "vitest";
import { createEventBus } from "./event-bus";

describe("the event bus", () => {
  it("runs every handler of an event in order, synchronously, and only that event's", () => {
    const bus = createEventBus();
    const seen: string[] = [];
    bus.on("integration.saved", ({ kind }) => seen.push(`a:${kind}`));
    bus.on("integration.saved", ({ kind }) => seen.push(`b:${kind}`));
    bus.on("user.access-changed", () => seen.push("user"));
    bus.emit("integration.saved", { kind: "bitbucket", elsewhere: false });
    expect(seen).toEqual(["a:bitbucket", "b:bitbucket"]);
  });

  it("a failing handler is logged and does not stop the others", () => {
    const logged: unknown[] = [];
    const bus = createEventBus({ log: { error: (obj: unknown) => logged.push(obj) } as never });
    let ran = false;
    bus.on("oauth.client-revoked", () => {
      throw new Error("boom");
    });
    bus.on("oauth.client-revoked", () => {
      ran = true;
    });
    bus.emit("oauth.client-revoked", { clientId: "bk_x", reason: "test" });
    expect(ran).toBe(true);
    expect(logged).toHaveLength(1);
  });
});
