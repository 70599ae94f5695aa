import { Router } from "../sandbox/core/http";
import { Rng } from "../sandbox/core/random";
import { confluenceModule } from "../sandbox/confluence";
const state = confluenceModule.seed(new Rng(1));
const router = new Router();
confluenceModule.routes(router, () => state);
const home = state.spaces[0]!.homepageId;
for (const [path, qs] of [[`/wiki/rest/api/content/${home}`, ""], [`/wiki/api/v2/pages/${home}`, ""], ["/wiki/rest/api/space", ""], ["/wiki/api/v2/pages", "limit=5"], ["/wiki/rest/api/search", "cql=" + encodeURIComponent('text ~ "rollout" and space = ENG') + "&limit=5"]] as const) {
  const m = router.match("GET", path);
  if (!m || m === "method") throw new Error(path);
  const req = { method: "GET", path, query: new URLSearchParams(qs), params: m.params, headers: {}, body: undefined, credentials: { kind: "none" as const }, origin: "http://127.0.0.1:5100" };
  for (let i = 0; i < 2000; i++) JSON.stringify((await m.handler(req)).body);
  const t0 = process.cpuUsage();
  const N = 20000;
  let bytes = 0;
  for (let i = 0; i < N; i++) { router.match("GET", path); bytes = JSON.stringify((await m.handler(req)).body).length; }
  const u = process.cpuUsage(t0); console.log(path, ((u.user + u.system) / N).toFixed(1), "µs cpu/req", bytes, "bytes");
}
