import { installSuite, suiteRunsHere } from "./conformance";

/**
 * The conformance suite's tools (tools/conformance) are installed once, before the workers start:
 * the MCP and the authorization-server conformance tests run in parallel workers, and two
 * `npm ci` into one folder at once break each other.
 */
export default async function setup() {
  if (suiteRunsHere) await installSuite();
}
