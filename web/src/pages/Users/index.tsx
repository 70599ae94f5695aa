import { ShieldCheck, Users } from "lucide-react";
import { useSearchParams } from "wouter";
import { PageHeader } from "@/components/ui/page-header";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { RolesTab } from "./components/roles-tab";
import { UsersTab } from "./components/users-tab";

type Tab = "users" | "roles";

/**
 * User Management (spec section 2) with a Roles tab. The tab is in the address (`?tab=roles`),
 * so it survives a reload and can be linked to.
 */
export default function UsersPage() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get("tab") === "roles" ? "roles" : "users";
  const selectTab = (next: string) => setParams(next === "roles" ? { tab: "roles" } : {}, { replace: true });

  return (
    <div className="space-y-6">
      <PageHeader title="User Management" description="Manage who can sign in to the console and which roles they hold" />
      <Tabs value={tab} onValueChange={selectTab} className="space-y-4">
        <TabsList aria-label="User Management sections">
          <TabsTrigger value="users">
            <Users aria-hidden="true" />
            Users
          </TabsTrigger>
          <TabsTrigger value="roles">
            <ShieldCheck aria-hidden="true" />
            Roles
          </TabsTrigger>
        </TabsList>
        <TabsContent value="users">
          <UsersTab />
        </TabsContent>
        <TabsContent value="roles">
          <RolesTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
