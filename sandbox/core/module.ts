import type { SandboxCredentials } from "../credentials";
import type { Service } from "./errors";
import type { Router } from "./http";
import type { Rng } from "./random";

/**
 * One imitated service: its seeded state and its routes. `state()` returns the live state, which a
 * reset replaces with a fresh seed (so routes must call it per request, never keep the object).
 */
export interface SandboxModule<S> {
  service: Service;
  /** The seeded data; `accounts` names the service account and the people (who get fixed account ids). */
  seed(rng: Rng, accounts: SandboxCredentials): S;
  routes(router: Router, state: () => S): void;
  /**
   * The service's web pages (core/html.ts) at the addresses its API links to: public, as a browser
   * following a link sends no API credentials. Never consulted for REST API paths.
   */
  pages?(router: Router, state: () => S): void;
  /**
   * The Data Center flavour's REST API, on paths under its context path (core/datacenter.ts; the
   * router sees `/rest/…`). Its state is seeded apart from the Cloud one with the same seed: the
   * same data, and a change on one flavour does not show on the other.
   */
  dataCenterRoutes?(router: Router, state: () => S): void;
}

export const defineModule = <S>(module: SandboxModule<S>): SandboxModule<S> => module;
