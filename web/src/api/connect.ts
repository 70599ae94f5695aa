/** GET /api/mcp-connection (issue 25): the MCP address and sign-in mode "Connect an AI client" shows; fixed while the server runs. */
import { useQuery } from "@tanstack/react-query";
import type { McpConnectionDto } from "@contract/connect";
import type { ApiError } from "./client";

export const MCP_CONNECTION_QUERY_KEY = ["/api/mcp-connection"] as const;

export const useMcpConnection = () =>
  useQuery<McpConnectionDto | null, ApiError>({ queryKey: MCP_CONNECTION_QUERY_KEY, staleTime: Number.POSITIVE_INFINITY });
