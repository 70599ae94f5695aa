import autocannon from "autocannon";
const url = process.argv[2]!;
const auth = "Basic " + Buffer.from("demo@bridgekeeper.test:sandbox-api-token").toString("base64");
const home = (await (await fetch(url + "/wiki/api/v2/spaces?keys=ENG", { headers: { authorization: auth } })).json()).results[0].homepageId;
for (const path of ["/__sandbox/health", `/wiki/rest/api/content/${home}`, `/wiki/api/v2/pages/${home}`, "/wiki/rest/api/space", "/wiki/api/v2/pages?limit=5", `/wiki/rest/api/search?cql=${encodeURIComponent('text ~ "rollout" and space = ENG')}&limit=5`]) {
  const r = await autocannon({ url: url + path, connections: 20, duration: 3, headers: { authorization: auth } });
  console.log(path.slice(0, 60), Math.round(r.requests.average), "req/s", "non2xx", r.non2xx);
}
