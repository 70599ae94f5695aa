import type { PermissionKey } from "@contract/permissions";
import { useSession } from "@/api/session";

/**
 * Whether the signed-in user holds a permission (D3). Courtesy only: the console hides what the
 * server would refuse anyway; the server is the guard.
 */
export function useCan(permission: PermissionKey): boolean {
  const { user } = useSession();
  return user?.permissions.includes(permission) ?? false;
}
