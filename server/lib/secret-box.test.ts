import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSecretBox, KEY_FILE_NAME, loadSecretKey, secretHint } from "./secret-box";

describe("secret box", () => {
  const box = createSecretBox(randomBytes(32));

  it("seals and opens, with a fresh nonce each time", () => {
    const a = box.seal("ATATT-token-1234", "atlassian");
    const b = box.seal("ATATT-token-1234", "atlassian");
    expect(a).not.toBe(b);
    expect(a).not.toContain("token");
    expect(box.open(a, "atlassian")).toBe("ATATT-token-1234");
  });

  it("refuses another purpose, another key and a tampered value", () => {
    const sealed = box.seal("secret", "atlassian");
    expect(() => box.open(sealed, "bitbucket")).toThrow();
    expect(() => createSecretBox(randomBytes(32)).open(sealed, "atlassian")).toThrow();
    const parts = sealed.split(".");
    parts[3] = Buffer.from("other").toString("base64url");
    expect(() => box.open(parts.join("."), "atlassian")).toThrow();
    expect(() => box.open("plain text", "atlassian")).toThrow();
  });
});

describe("loadSecretKey", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), "bk-key-"));
    dirs.push(d);
    return d;
  };

  it("creates an owner-only key file on first start and reads the same key afterwards", () => {
    const dir = tempDir();
    const first = loadSecretKey({ secretKey: undefined, dataDir: dir });
    expect(first.source).toBe("file");
    expect(statSync(join(dir, KEY_FILE_NAME)).mode & 0o777).toBe(0o600);
    expect(loadSecretKey({ secretKey: undefined, dataDir: dir }).key.equals(first.key)).toBe(true);
    expect(readFileSync(join(dir, KEY_FILE_NAME), "utf8")).not.toContain("\u0000");
  });

  it("derives the key from SECRET_KEY when set, without touching the data directory", () => {
    const dir = tempDir();
    const a = loadSecretKey({ secretKey: "x".repeat(40), dataDir: dir });
    expect(a.source).toBe("env");
    expect(a.key).toHaveLength(32);
    expect(loadSecretKey({ secretKey: "x".repeat(40), dataDir: dir }).key.equals(a.key)).toBe(true);
    expect(() => statSync(join(dir, KEY_FILE_NAME))).toThrow();
  });
});

describe("secretHint", () => {
  it("shows the last four characters of a key of 12 or more, nothing of a shorter one", () => {
    expect(secretHint("sk-proj-abcdefgh-7f3a")).toBe("7f3a");
    expect(secretHint("abcdefgh1234")).toBe("1234");
    expect(secretHint("ollama")).toBe("");
    expect(secretHint("abcdefgh123")).toBe("");
  });
});
