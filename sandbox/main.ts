// `npm run sandbox`: the imitation Jira, Confluence and Bitbucket APIs (Cloud, and Data Center under /dc/…) on SANDBOX_PORT.
import { startSandbox } from "./server";

const port = Number(process.env.SANDBOX_PORT ?? 5100);
const host = process.env.SANDBOX_HOST ?? "127.0.0.1";
const sandbox = await startSandbox({ port, host });
const { atlassian, bitbucket, people, atlassianApp, bitbucketConsumer, cloudId, dataCenter } = sandbox.credentials;
const dcLinks = (["jira", "confluence", "bitbucket"] as const)
  .map((s) => `${s} ${dataCenter.oauthClients[s].clientId} / ${dataCenter.oauthClients[s].clientSecret}`)
  .join(", ");
console.log(
  [
    `Sandbox listening on ${sandbox.url}`,
    `  Jira and Confluence: instance URL ${sandbox.url}, email ${atlassian.email}, API token ${atlassian.apiToken}`,
    `  Bitbucket: API URL ${sandbox.url}/2.0, workspace ${bitbucket.workspace}, username ${bitbucket.username}, app password ${bitbucket.appPassword}`,
    `  People (each sees only their own projects, spaces and repositories): ${people.map((p) => `${p.email} / ${p.apiToken}`).join(", ")}`,
    `  Atlassian OAuth 2.0 (3LO): ${sandbox.url}/authorize, client ${atlassianApp.clientId} / ${atlassianApp.clientSecret}, cloud id ${cloudId}, gateway ${sandbox.url}/ex/jira/${cloudId}`,
    `  Bitbucket OAuth consumer: ${sandbox.url}/site/oauth2/authorize, key ${bitbucketConsumer.key} / ${bitbucketConsumer.secret}`,
    `  Data Center: Jira ${sandbox.dataCenter.jira}, Confluence ${sandbox.dataCenter.confluence}, Bitbucket ${sandbox.dataCenter.bitbucket}; username ${dataCenter.username} / ${dataCenter.password}, personal access token ${dataCenter.personalAccessToken}; people by username with their API token or sandbox-dc-pat-<first name>`,
    `  Data Center OAuth 2.0 (incoming application links, {base}/rest/oauth2/latest/authorize): ${dcLinks}`,
    `  Web pages (no sign-in): ${sandbox.url}/browse/BK-1, Confluence pages under ${sandbox.url}/wiki/spaces/, repositories at ${sandbox.url}/${bitbucket.workspace}/REPO`,
    `  Faults: POST ${sandbox.url}/__sandbox/faults {"path":"/rest/api/3/myself","status":429,"retryAfter":2}`,
  ].join("\n"),
);
const stop = () => {
  sandbox.close().then(() => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
