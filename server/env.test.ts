import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env";

describe("configuration from the environment", () => {
  it("has working defaults", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 5000, DATA_DIR: "./data", NODE_ENV: "production", TRUST_PROXY: false });
    expect(env.CORS_ORIGINS).toEqual(["http://localhost:3000", "http://localhost:5000"]);
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("parses numbers, booleans and lists", () => {
    const env = parseEnv({ PORT: "8080", TRUST_PROXY: "1", CORS_ORIGINS: "https://a.example, https://b.example" });
    expect(env.PORT).toBe(8080);
    expect(env.TRUST_PROXY).toBe(1);
    expect(env.CORS_ORIGINS).toEqual(["https://a.example", "https://b.example"]);
  });

  it.each([
    ["false", false],
    ["2", 2],
    ["loopback", ["loopback"]],
    ["loopback, 10.0.0.0/8, 192.168.1.5, fd00::/8", ["loopback", "10.0.0.0/8", "192.168.1.5", "fd00::/8"]],
  ])("TRUST_PROXY=%s names the proxies to believe", (value, expected) => {
    expect(parseEnv({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it("TRUST_PROXY=true is refused with a message saying what to write instead", () => {
    expect(() => parseEnv({ TRUST_PROXY: "true" })).toThrow(
      /TRUST_PROXY: true would trust any client's X-Forwarded-For; name the proxies instead/,
    );
  });

  it("treats an empty variable as unset", () => {
    const env = parseEnv({ PORT: "", ADMIN_PASSWORD: "" });
    expect(env.PORT).toBe(5000);
    expect(env.ADMIN_PASSWORD).toBeUndefined();
  });

  it.each([
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["DATABASE_URL", "mysql://db"],
    ["TRUST_PROXY", "maybe"],
    ["TRUST_PROXY", "true"],
    ["TRUST_PROXY", "10.0.0.0/33"],
    ["TRUST_PROXY", "loopback, example.com"],
    ["ADMIN_PASSWORD", "123"],
    ["LOG_LEVEL", "loud"],
  ])("a bad %s stops the start with a message naming it", (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(EnvError);
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });
});
