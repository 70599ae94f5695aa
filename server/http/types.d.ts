import type { ResolvedSession } from "../modules/auth/auth.service";

declare global {
  namespace Express {
    interface Request {
      /** Set by the session middleware when the cookie names a live session. */
      session?: ResolvedSession;
    }
  }
}

export {};
