import { startSandbox } from "../sandbox/server";
const sb = await startSandbox({ port: 0 });
console.log(sb.url);
