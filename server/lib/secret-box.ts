import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Secrets at rest (docs/decisions.md#secrets-at-rest): AES-256-GCM, a fresh 96-bit nonce per value,
 * and the value's purpose as associated data, so a sealed Bitbucket password pasted into the
 * Atlassian row does not open. Format: `v1.<nonce>.<tag>.<ciphertext>`, each base64url.
 */
export interface SecretBox {
  seal(plaintext: string, purpose: string): string;
  /** Throws when the value was not sealed with this key for this purpose. */
  open(sealed: string, purpose: string): string;
  /** HMAC-SHA256 of `data` under a key derived (HKDF) from this key for `purpose`: tamper checks that need no secrecy. */
  mac(data: string, purpose: string): Buffer;
}

const VERSION = "v1";

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error("secret box key must be 32 bytes");
  const macKeys = new Map<string, Buffer>();
  const macKey = (purpose: string): Buffer => {
    let derived = macKeys.get(purpose);
    if (!derived) {
      derived = Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), `bridgekeeper mac: ${purpose}`, 32));
      macKeys.set(purpose, derived);
    }
    return derived;
  };
  return {
    mac: (data, purpose) => createHmac("sha256", macKey(purpose)).update(data, "utf8").digest(),
    seal(plaintext, purpose) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, nonce);
      cipher.setAAD(Buffer.from(purpose, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return [VERSION, nonce.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
    },
    open(sealed, purpose) {
      const [version, nonce, tag, ciphertext] = sealed.split(".");
      if (version !== VERSION || !nonce || !tag || ciphertext === undefined) throw new Error("not a sealed secret");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64url"), { authTagLength: 16 });
      decipher.setAAD(Buffer.from(purpose, "utf8"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}

export const KEY_FILE_NAME = "secret.key";

/**
 * The key: derived from SECRET_KEY when set (any string of 32+ characters), otherwise read from
 * `<dataDir>/secret.key`, which the first start creates (32 random bytes, owner-only).
 */
export function loadSecretKey(options: { secretKey: string | undefined; dataDir: string }): { key: Buffer; source: "env" | "file" } {
  if (options.secretKey) return { key: createHash("sha256").update(options.secretKey, "utf8").digest(), source: "env" };
  const file = join(options.dataDir, KEY_FILE_NAME);
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, "utf8").trim(), "base64");
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
    return { key, source: "file" };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return { key, source: "file" };
}

/**
 * What the API may show of a write-only secret (docs/decisions.md#write-only-secrets): its last
 * four characters, or nothing of a secret shorter than 12 (four of a short one would give too much
 * of it away; an Ollama server's key may be "ollama").
 */
export const secretHint = (secret: string): string => (secret.length >= 12 ? secret.slice(-4) : "");
