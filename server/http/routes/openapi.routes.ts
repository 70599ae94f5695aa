import { Router } from "express";
import { buildOpenApiDocument } from "../openapi/openapi-document";
import { signedIn } from "../middleware/access";

/** The OpenAPI 3.1 document of /api (openapi/api-routes.ts), for any signed-in user; built on first ask. */
export function openApiRoutes(deps: { version: string }): Router {
  const router = Router();
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  router.get("/openapi.json", signedIn, (_req, res) => {
    document ??= buildOpenApiDocument({ version: deps.version });
    res.json(document);
  });
  return router;
}
