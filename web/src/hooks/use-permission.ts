import type { PermissionKey } from "@contract/permissions";
import { useSession } from "@/api/session";

/**
 * Whether the signed-in user holds a permission (docs/decisions.md#roles-and-permissions). Courtesy
 * only: the console hides what the server would refuse anyway; the server is the guard.
 */
export function useCan(permission: PermissionKey): boolean {
  const { user } = useSession();
  return user?.permissions.includes(permission) ?? false;
}
