import { pino, type DestinationStream, type Logger } from "pino";
import { safeError } from "./safe-error";

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

/**
 * JSON lines on stdout (or `destination`). An `err` is logged by kind, code and message only
 * (lib/safe-error.ts): a failed query's parameters never reach a log line.
 */
export function createLogger(options: { level: string }, destination?: DestinationStream): Logger {
  const settings = {
    level: options.level,
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    base: { service: "bridgekeeper" },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: safeError },
  };
  return destination ? pino(settings, destination) : pino(settings);
}

/** Query strings can carry tokens (`?access_token=`, `?code=`): log the path and the parameter names only. */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  const names = [...new Set(params.keys())];
  return `${url.slice(0, q)}?${names.map((n) => `${n}=…`).join("&")}`;
}
