import { Router } from "express";
import type { McpConnectionDto } from "../../../contract/connect";
import { publicUrl, type Env } from "../../env";
import { MCP_PATH } from "../../mcp/paths";
import { signedIn } from "../middleware/access";

export type McpConnectionConfig = Pick<Env, "PUBLIC_URL" | "PORT" | "OAUTH_DYNAMIC_REGISTRATION" | "OAUTH_CLIENT_ID_METADATA_DOCUMENTS">;

/**
 * What "Connect an AI client" shows (issue 25), from the settings the OAuth metadata is written
 * from: the MCP address is the protected resource a client will be told (PUBLIC_URL), not
 * whatever address the console happens to be open at.
 */
export function mcpConnection(config: McpConnectionConfig): McpConnectionDto {
  const origin = publicUrl(config);
  return {
    mcpUrl: `${origin}${MCP_PATH}`,
    publicUrl: origin,
    publicUrlConfigured: config.PUBLIC_URL !== undefined,
    dynamicRegistration: config.OAUTH_DYNAMIC_REGISTRATION,
    metadataDocuments: config.OAUTH_CLIENT_ID_METADATA_DOCUMENTS,
  };
}

/** For any signed-in user: the address and the sign-in mode are what every MCP client is told anyway. */
export function mcpConnectionRoutes(config: McpConnectionConfig): Router {
  const router = Router();
  const body = mcpConnection(config);
  router.get("/mcp-connection", signedIn, (_req, res) => {
    res.json(body);
  });
  return router;
}
