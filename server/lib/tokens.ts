import { createHash, randomBytes } from "node:crypto";

/** 256 bits from the CSPRNG, URL-safe. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString("base64url");

/** What we store instead of a bearer secret: a leaked table cannot be replayed. */
export const sha256Hex = (value: string): string => createHash("sha256").update(value).digest("hex");
