import { LogOut, UserCog } from "lucide-react";
import { MY_ACCOUNTS_PATH } from "@contract/accounts";
import { Link, useRoute } from "wouter";
import { NAV_ITEMS, type NavPath } from "@contract/navigation";
import { useLogout, useSession } from "@/api/session";
import { BrandLockup } from "@/components/brand/brand-mark";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { NAV_ICONS } from "./nav-icons";
import { ThemeToggle } from "./theme-toggle";

/**
 * What the sidebar holds, on a desktop as a fixed column and on a phone inside the drawer:
 * brand, the nine entries in the specification's order, then the signed-in user (a link to My
 * accounts), the theme toggle and Logout at the bottom.
 */
export function SidebarContent({ onNavigate }: { onNavigate?: () => void }) {
  const { user } = useSession();
  const logout = useLogout();

  return (
    <div className="flex h-full flex-col">
      <div className="flex h-16 shrink-0 items-center border-b border-border px-5">
        <Link
          href="/"
          onClick={onNavigate}
          className="rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          aria-label="Bridgekeeper, go to the dashboard"
        >
          <BrandLockup />
        </Link>
      </div>

      <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-4">
        <ul className="flex flex-col gap-0.5">
          {NAV_ITEMS.map((item) => (
            <li key={item.path}>
              <NavLink path={item.path} label={item.label} onNavigate={onNavigate} />
            </li>
          ))}
        </ul>
      </nav>

      <div className="shrink-0 space-y-3 border-t border-border p-4">
        <div className="flex items-center gap-2">
          <AccountLink username={user?.username} onNavigate={onNavigate} />
          <ThemeToggle />
        </div>
        <Button variant="outline" className="w-full justify-start" onClick={() => logout.mutate()} disabled={logout.isPending}>
          <LogOut aria-hidden="true" />
          {logout.isPending ? "Logging out..." : "Logout"}
        </Button>
      </div>
    </div>
  );
}

/**
 * The signed-in user, a link to My accounts (issue 27: not one of the nine entries, the spec fixes
 * those). Named "My accounts" for assistive tech, the username following; highlighted while shown.
 */
function AccountLink({ username, onNavigate }: { username: string | undefined; onNavigate?: (() => void) | undefined }) {
  const [active] = useRoute(MY_ACCOUNTS_PATH);
  return (
    <Link
      href={MY_ACCOUNTS_PATH}
      onClick={onNavigate}
      aria-current={active ? "page" : undefined}
      aria-label={`My accounts, signed in as ${username ?? "unknown"}`}
      title="My accounts"
      className={cn(
        "-mx-2 -my-1 flex min-w-0 flex-1 items-center gap-3 rounded-md px-2 py-1 transition-colors",
        "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
        active ? "bg-primary/10" : "hover:bg-accent",
      )}
    >
      <span
        aria-hidden="true"
        className="flex size-8 shrink-0 items-center justify-center rounded-full bg-muted text-xs font-semibold uppercase text-muted-foreground"
      >
        {username?.slice(0, 1) ?? "?"}
      </span>
      <span className="min-w-0 flex-1">
        <span className="block text-xs text-muted-foreground">Signed in as</span>
        <span className={cn("block truncate text-sm font-medium", active && "text-primary")}>{username}</span>
      </span>
      <UserCog className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
    </Link>
  );
}

/** One sidebar entry; `aria-current="page"` (and the highlight) while its route is shown. */
function NavLink({ path, label, onNavigate }: { path: NavPath; label: string; onNavigate?: (() => void) | undefined }) {
  const [active] = useRoute(path);
  const Icon = NAV_ICONS[path];
  return (
    <Link
      href={path}
      onClick={onNavigate}
      aria-current={active ? "page" : undefined}
      className={cn(
        "flex h-9 items-center gap-3 rounded-md px-3 text-sm font-medium transition-colors",
        "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
        active ? "bg-primary/10 text-primary" : "text-muted-foreground hover:bg-accent hover:text-accent-foreground",
      )}
    >
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      {label}
    </Link>
  );
}
