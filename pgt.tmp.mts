import { PGlite } from "@electric-sql/pglite";
import { writeFileSync, readFileSync } from "node:fs";
const t0 = Date.now();
const a = new PGlite(); await a.waitReady; console.log("new", Date.now() - t0);
await a.exec("create table t(x int)");
const d = await a.dumpDataDir("none"); writeFileSync("/tmp/pgt.tar", Buffer.from(await d.arrayBuffer()));
for (const opts of [{}, { noInitDb: true }]) {
  const t = Date.now();
  const b = new PGlite({ loadDataDir: new Blob([readFileSync("/tmp/pgt.tar")]), ...opts }); await b.waitReady;
  console.log(JSON.stringify(opts), Date.now() - t, (await b.query("select count(*) from t")).rows);
  await b.close();
}
