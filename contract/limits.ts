/** Numbers both sides agree on (spec section 9). */
export const LIMITS = {
  usernameMin: 3,
  usernameMax: 64,
  passwordMin: 6,
  /** argon2 work on a megabyte of "password" is a denial of service; no real password is longer. */
  passwordMax: 256,
  /** JSON request bodies on /api. */
  jsonBodyBytes: 100 * 1024,
  /** An MCP JSON-RPC message (a tool's arguments may carry a page of text). */
  mcpBodyBytes: 4 * 1024 * 1024,
} as const;

/** Client polling and caching (spec section 9). */
export const TIMINGS = {
  sessionStaleMs: 5 * 60 * 1000,
  statsPollMs: 30_000,
  logsPollMs: 30_000,
  integrationStatusPollMs: 60_000,
  sseConnectionsPollMs: 10_000,
  sseHeartbeatMs: 30_000,
  logoutRedirectDelayMs: 100,
  toastDurationMs: 5000,
  toastRemoveDelayMs: 1_000_000,
  toastLimit: 1,
  toastSwipeThresholdPx: 50,
} as const;

/**
 * Rate limits in force by default (spec section 9, docs/decisions.md#rate-limits); each is
 * configurable through the environment and the Configuration screen shows the values the server
 * runs with.
 */
export const RATE_LIMIT_DEFAULTS = {
  apiRequestsPerMinute: 100,
  apiBurst: 10,
  oauthRequests: 10,
  oauthWindowMinutes: 15,
  sseStreamsPerMinute: 5,
  sseMaxConcurrent: 50,
} as const;
