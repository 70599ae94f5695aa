import { z } from "zod";
import {
  createDocument,
  type CreateDocumentOptions,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from "zod-openapi";
import { ERROR_STATUS, type ErrorCode } from "../../../contract/errors";
import { SCOPE_DESCRIPTIONS } from "../../../contract/oauth";
import { SESSION_COOKIE } from "../session-cookie";
import { API_ROUTES, type Answer, type ApiRoute } from "./api-routes";
import { ErrorBodySchema } from "./response-schemas";

/** `/api/users/:id` → `/api/users/{id}`; an Express wildcard `*path` is the parameter `{path}`. */
export const openApiPath = (expressPath: string): string => expressPath.replace(/[:*](\w+)/g, "{$1}");

/** A status code as a response key ("200", "404"). */
type StatusKey = `${1 | 2 | 3 | 4 | 5}${string}`;
const statusKey = (status: number) => String(status) as StatusKey;

/** RFC 6750 §3: how a bearer route refuses a token (with its WWW-Authenticate challenge). */
const OAuthErrorBodySchema = z.object({ error: z.string(), error_description: z.string().optional() }).meta({
  id: "OAuthErrorBody",
  description:
    "An RFC 6750 error (invalid_token, insufficient_scope, invalid_request); the WWW-Authenticate header carries the Bearer challenge",
});
/** How the MCP pipeline refuses on its JSON-RPC paths (server/mcp/json-rpc.ts sendRpcError). */
const JsonRpcErrorSchema = z
  .object({
    jsonrpc: z.literal("2.0"),
    error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }),
    id: z.union([z.string(), z.number(), z.null()]),
  })
  .meta({ id: "JsonRpcError", description: "A JSON-RPC 2.0 error response" });
const challengeHeader = z.object({
  "WWW-Authenticate": z.string().meta({ description: 'Bearer error="…", scope="read", resource_metadata="…" (RFC 9728 §5.1)' }),
});

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const isBearer = (route: ApiRoute) => route.access.startsWith("bearer:");
const pathParams = (path: string): string[] => [...path.matchAll(/[:*](\w+)/g)].map((m) => m[1]!);

/** A query schema as one object of parameters (LogQuerySchema is the filters intersected with paging). */
function parameterObject(schema: z.ZodType): z.ZodObject {
  if (schema instanceof z.ZodObject) return schema;
  if (schema instanceof z.ZodIntersection)
    return z.object({ ...parameterObject(schema.def.left as z.ZodType).shape, ...parameterObject(schema.def.right as z.ZodType).shape });
  throw new Error(`A query schema must be an object or an intersection of objects, not ${schema._zod.def.type}`);
}

/** The house error codes a route can answer, from what it is (its guard, input and path) and what it declares. */
function errorCodesOf(route: ApiRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  // The house body parser and parseInput stand before a body; the MCP pipeline checks its own (the route names what it refuses).
  if (route.body && route.errorForm !== "json-rpc")
    ["validation_failed", "invalid_json", "payload_too_large"].forEach((c) => codes.add(c as ErrorCode));
  if (route.query) codes.add("validation_failed");
  if (pathParams(route.path).length > 0 && !isBearer(route)) codes.add("not_found");
  if (!isBearer(route)) {
    if (route.access !== "public") codes.add("unauthenticated");
    if (route.access !== "public" && route.access !== "session") codes.add("forbidden");
    // The CSRF guard stands before every cookie route: a cross-site write is refused.
    if (WRITES.has(route.method)) codes.add("csrf_rejected");
  }
  for (const code of route.errors ?? []) codes.add(code);
  return [...codes];
}

function errorResponses(route: ApiRoute): ZodOpenApiResponsesObject {
  const rpc = route.errorForm === "json-rpc";
  const body = rpc ? JsonRpcErrorSchema : ErrorBodySchema;
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, codes] of byStatus) {
    responses[statusKey(status)] = {
      description: rpc ? `Refused (${codes.join(", ")}), as a JSON-RPC error` : `Error: ${codes.join(", ")}`,
      content: { "application/json": { schema: body } },
    };
  }
  if (isBearer(route)) {
    responses["401"] = {
      description: "No valid access token for this resource",
      headers: challengeHeader,
      content: { "application/json": { schema: OAuthErrorBodySchema } },
    };
    // A refusal of the route's own (a client's policy, an Origin) shares 403 with the token's missing scope.
    const ownRefusal = route.errors?.includes("forbidden");
    responses["403"] = {
      description: ownRefusal
        ? "The token lacks the scope (RFC 6750, with a Bearer challenge), or the route refuses the request (forbidden)"
        : "The token lacks the scope",
      ...(ownRefusal ? {} : { headers: challengeHeader }),
      content: { "application/json": { schema: ownRefusal ? z.union([OAuthErrorBodySchema, body]) : OAuthErrorBodySchema } },
    };
  }
  responses.default = {
    description: `Any other failure (500 internal ...)${rpc ? ", as a JSON-RPC error" : ""}`,
    content: { "application/json": { schema: body } },
  };
  return responses;
}

/** Responses in the order of their status codes, `default` last. */
const byStatusCode = (responses: ZodOpenApiResponsesObject): ZodOpenApiResponsesObject =>
  Object.fromEntries(
    Object.entries(responses).sort(([a], [b]) => (a === "default" ? 1 : b === "default" ? -1 : a.localeCompare(b))),
  ) as ZodOpenApiResponsesObject;

function successResponses(answers: Answer[]): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const a of answers) {
    const content = a.json ? { "application/json": a.json } : a.content;
    responses[statusKey(a.status)] = {
      description: a.description,
      ...(a.headers ? { headers: a.headers } : {}),
      ...(content ? { content: Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, { schema }])) } : {}),
    };
  }
  return responses;
}

/** `GET /api/admin/oauth-clients/:clientId/policy` → `getAdminOauthClientsByClientIdPolicy`. */
function operationIdOf(route: Pick<ApiRoute, "method" | "path">): string {
  const words = route.path
    .replace(/^\/api\//, "")
    .split("/")
    .flatMap((segment) => (/^[:*]/.test(segment) ? ["by", segment.slice(1)] : segment.split(/[^A-Za-z0-9]+/)))
    .filter(Boolean);
  return [route.method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join("");
}

function operationOf(route: ApiRoute): ZodOpenApiOperationObject {
  const params = pathParams(route.path);
  const security =
    route.access === "public" ? [] : isBearer(route) ? [{ oauth2: [route.access.slice("bearer:".length)] }] : [{ session: [] }];
  const permission = route.access === "public" || route.access === "session" || isBearer(route) ? undefined : route.access;
  return {
    operationId: operationIdOf(route),
    tags: [route.tag],
    summary: route.summary,
    ...(route.description || permission
      ? { description: [route.description, permission && `Needs the \`${permission}\` permission.`].filter(Boolean).join("\n\n") }
      : {}),
    security,
    ...(permission ? { "x-permission": permission } : {}),
    ...(params.length > 0 || route.query
      ? {
          requestParams: {
            ...(params.length > 0
              ? { path: z.object(Object.fromEntries(params.map((name) => [name, route.params?.[name] ?? z.string()]))) }
              : {}),
            ...(route.query ? { query: parameterObject(route.query) } : {}),
          },
        }
      : {}),
    ...(route.body ? { requestBody: { required: true, content: { "application/json": { schema: route.body } } } } : {}),
    responses: byStatusCode({ ...errorResponses(route), ...successResponses(Array.isArray(route.ok) ? route.ok : [route.ok]) }),
  };
}

/**
 * A request string piped into further rules (contract/text.ts `nfkc`: normalised, then held to the
 * username rules; an e-mail: one line, then z.email()) renders by its input side alone; the
 * document adds the rules the string is then held to.
 */
const override: CreateDocumentOptions["override"] = ({ jsonSchema, zodSchema, io }) => {
  if (io !== "input" || !(zodSchema instanceof z.ZodPipe) || zodSchema.def.out._zod.def.type !== "string") return;
  const first = zodSchema.def.in;
  if (!(first instanceof z.ZodString) && !(first instanceof z.ZodPipe && first.def.out instanceof z.ZodTransform)) return;
  Object.assign(jsonSchema, z.toJSONSchema(zodSchema.def.out, { io: "input" }));
  delete jsonSchema.$schema;
};

/**
 * The OpenAPI 3.1 document of /api, generated by zod-openapi from the route table (api-routes.ts)
 * and the contract/ schemas it names. Request schemas are rendered as their input (what a caller
 * sends), answers as their output.
 */
export function buildOpenApiDocument(options: { version: string; routes?: readonly ApiRoute[] }) {
  const routes = options.routes ?? API_ROUTES;
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    const item = (paths[openApiPath(route.path)] ??= {});
    const method = route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
    if (item[method]) throw new Error(`${route.method} ${route.path} is declared twice`);
    item[method] = operationOf(route);
  }
  return createDocument(
    {
      openapi: "3.1.0",
      info: {
        title: "Bridgekeeper console and admin API",
        version: options.version,
        description: [
          "The API the console uses, under /api. The console signs in with POST /api/login and sends the session cookie; the proxy and MCP paths take an OAuth access token from this server instead.",
          "Every error is `{ error: { code, message, fields? }, requestId }` (ErrorBody), its status decided by the code; bearer refusals are RFC 6750 bodies with a WWW-Authenticate challenge.",
          "The OAuth authorization server (/oauth/*, /.well-known/*), /mcp and the legacy /sse transport are described by their own specifications and metadata, not here.",
        ].join("\n\n"),
      },
      tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
      paths,
      components: {
        securitySchemes: {
          session: {
            type: "apiKey",
            in: "cookie",
            name: SESSION_COOKIE,
            description: `The console's session cookie, set by POST /api/login (\`__Host-${SESSION_COOKIE}\` over HTTPS). A write (POST, PUT, PATCH, DELETE) whose Origin or Sec-Fetch-Site says it came from another site is refused (403 csrf_rejected); there is no CSRF token to send.`,
          },
          oauth2: {
            type: "oauth2",
            description:
              "An access token of this server's OAuth 2.1 authorization server (authorization code with PKCE), in `Authorization: Bearer …`.",
            flows: {
              authorizationCode: {
                authorizationUrl: "/oauth/authorize",
                tokenUrl: "/oauth/token",
                refreshUrl: "/oauth/token",
                scopes: { ...SCOPE_DESCRIPTIONS },
              },
            },
          },
        },
      },
    },
    { override },
  );
}
