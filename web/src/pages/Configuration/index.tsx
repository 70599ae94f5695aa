import { useServerConfig } from "@/api/integrations";
import { PageHeader } from "@/components/ui/page-header";
import { useCan } from "@/hooks/use-permission";
import { AtlassianCard } from "./components/atlassian-card";
import { BitbucketCard } from "./components/bitbucket-card";
import { CorsCard } from "./components/cors-card";
import { IdentityCard } from "./components/identity-card";
import { NoPermission } from "@/components/ui/no-permission";
import { RateLimitsCard } from "./components/rate-limits-card";
import { ServerSettingsCard } from "./components/server-settings-card";
import { corsOriginsOf, rateLimitsOf } from "./lib/config-entries";

/**
 * Configuration (spec section 2): the Atlassian and Bitbucket forms, who each acts as (issue 27), the
 * server settings, CORS and the rate limits in force. Reading needs config.read; saving and testing config.write
 * (docs/decisions.md#roles-and-permissions: the server is the guard, the page only stops offering
 * what it would refuse).
 */
export default function ConfigurationPage() {
  const canRead = useCan("config.read");
  const canWrite = useCan("config.write");
  const serverConfig = useServerConfig(canRead);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Configuration"
        description="Connect Jira, Confluence and Bitbucket, and review the server settings and limits in force"
      />
      {canRead ? (
        <>
          <div className="grid gap-6 xl:grid-cols-2">
            <AtlassianCard canWrite={canWrite} />
            <BitbucketCard canWrite={canWrite} />
          </div>
          {/* Who each integration acts as (issue 27): the shared account above, or each person's own. */}
          <div className="grid gap-6 xl:grid-cols-2">
            <IdentityCard integration="atlassian" canWrite={canWrite} />
            <IdentityCard integration="bitbucket" canWrite={canWrite} />
          </div>
          <div className="grid gap-6 xl:grid-cols-2">
            <ServerSettingsCard config={serverConfig} />
            <CorsCard serverOrigins={corsOriginsOf(serverConfig.data)} />
          </div>
          {/* While loading, the defaults (spec section 9); then the values in force
              (docs/decisions.md#rate-limits). */}
          <RateLimitsCard limits={rateLimitsOf(serverConfig.data)} fromDefaults={serverConfig.isError} />
        </>
      ) : (
        <NoPermission what="the configuration" />
      )}
    </div>
  );
}
