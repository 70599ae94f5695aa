import { existsSync } from "node:fs";
import { join } from "node:path";
import compression from "compression";
import express, { Router, type RequestHandler } from "express";
import { AppError } from "../lib/app-error";

/**
 * Serves the built console (dist/web): hashed assets cached for a year, index.html never cached,
 * and every other GET answered with index.html so the client router can render the page (or its
 * own 404). Only mounted after the API, so no /api path ever gets HTML.
 */
export function staticConsole(webRoot: string): RequestHandler {
  const indexFile = join(webRoot, "index.html");
  const router = Router();
  router.use(compression());
  router.use(
    "/assets",
    express.static(join(webRoot, "assets"), { immutable: true, maxAge: "365d", index: false }),
    // A missing asset (a stale hash after a deploy, a scanner, a traversal attempt) is a plain 404,
    // never index.html under a script's name.
    (_req, _res, next) => next(new AppError("not_found", "Not found")),
  );
  router.use(express.static(webRoot, { index: false, maxAge: "1h" }));
  router.use((req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    if (!existsSync(indexFile)) {
      res.status(503).type("text/plain").send("The console is not built. Run `npm run build`, then restart.");
      return;
    }
    res.set("Cache-Control", "no-cache").sendFile(indexFile);
  });
  return router;
}
