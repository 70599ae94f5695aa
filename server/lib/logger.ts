import { pino, type Logger } from "pino";

export type { Logger };

/**
 * Secrets must never reach a log line (ARCHITECTURE rule 5). Request and response serializers
 * only ever copy an allow-list of fields, and these paths are censored in case a caller logs
 * an object that carries one.
 */
const REDACT_PATHS = [
  "password",
  "*.password",
  "newPassword",
  "*.newPassword",
  "apiKey",
  "*.apiKey",
  "apiToken",
  "*.apiToken",
  "appPassword",
  "*.appPassword",
  "clientSecret",
  "*.clientSecret",
  "headers.authorization",
  "headers.cookie",
  'headers["set-cookie"]',
  "req.headers.authorization",
  "req.headers.cookie",
];

export function createLogger(options: { level: string; pretty?: boolean }): Logger {
  return pino({
    level: options.level,
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    base: { service: "bridgekeeper" },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

/** Query strings can carry tokens (`?access_token=`, `?code=`): log the path and the parameter names only. */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  const names = [...new Set(params.keys())];
  return `${url.slice(0, q)}?${names.map((n) => `${n}=…`).join("&")}`;
}
