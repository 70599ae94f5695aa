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
    const env = parseEnv({ PORT: "8080", TRUST_PROXY: "true", CORS_ORIGINS: "https://a.example, https://b.example" });
    expect(env.PORT).toBe(8080);
    expect(env.TRUST_PROXY).toBe(true);
    expect(env.CORS_ORIGINS).toEqual(["https://a.example", "https://b.example"]);
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
    ["ADMIN_PASSWORD", "123"],
    ["LOG_LEVEL", "loud"],
  ])("a bad %s stops the start with a message naming it", (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(EnvError);
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });
});
