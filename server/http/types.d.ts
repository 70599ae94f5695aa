import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { ResolvedSession } from "../modules/auth/auth.service";

declare global {
  namespace Express {
    interface Request {
      /** Set by the session middleware when the cookie names a live session. */
      session?: ResolvedSession;
      /** Set by a bearer guard (middleware/bearer.ts) once the request's access token is verified. */
      auth?: AuthInfo;
    }
  }
}

export {};
