import express, { type RequestHandler } from "express";
import { AppError } from "../../lib/app-error";

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * JSON only, bounded. A write that carries a body of another type gets 415: besides clarity, it
 * means a cross-site HTML form (which cannot send application/json) can never reach a handler.
 */
export function jsonBody(options: { limitBytes: number }): RequestHandler[] {
  const requireJson: RequestHandler = (req, _res, next) => {
    const hasBody = Number(req.get("content-length") ?? 0) > 0 || req.get("transfer-encoding") !== undefined;
    if (BODY_METHODS.has(req.method) && hasBody && !req.is("application/json")) {
      return next(new AppError("unsupported_media_type", "Request body must be application/json"));
    }
    next();
  };
  return [requireJson, express.json({ limit: options.limitBytes, strict: true })];
}
