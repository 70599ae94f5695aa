import { describe, expect, it } from "vitest";
import { parseMultipart } from "./multipart";

describe("parseMultipart", () => {
  it("splits a form into named parts, file bytes intact (CRLF inside included)", async () => {
    const form = new FormData();
    const bytes = Uint8Array.from([0, 13, 10, 45, 45, 255, 13, 10]);
    form.append("file", new Blob([bytes], { type: "application/octet-stream" }), "x.bin");
    form.append("comment", "hi");
    const res = new Response(form);
    const parts = parseMultipart(Buffer.from(await res.arrayBuffer()), res.headers.get("content-type")!);
    expect(parts).toHaveLength(2);
    expect(parts![0]).toMatchObject({ name: "file", filename: "x.bin", contentType: "application/octet-stream" });
    expect(Buffer.from(parts![0]!.data).equals(Buffer.from(bytes))).toBe(true);
    expect(parts![1]).toMatchObject({ name: "comment", filename: null });
    expect(parts![1]!.data.toString()).toBe("hi");
  });

  it("is null without a boundary or a body that follows it", () => {
    expect(parseMultipart(Buffer.from("x"), "multipart/form-data")).toBeNull();
    expect(parseMultipart("text", "multipart/form-data; boundary=abc")).toBeNull();
    expect(parseMultipart(Buffer.from("--abc\r\nno end"), "multipart/form-data; boundary=abc")).toBeNull();
  });
});
