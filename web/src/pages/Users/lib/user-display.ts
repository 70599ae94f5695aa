import type { UserDto } from "@contract/users";

/** Spec section 2: first and last name when both are present, else the username. */
export function displayName(user: Pick<UserDto, "firstName" | "lastName" | "username">): string {
  const first = user.firstName?.trim();
  const last = user.lastName?.trim();
  return first && last ? `${first} ${last}` : user.username;
}

/** Spec section 2: initials from first and last name, else the username's first letter. */
export function initials(user: Pick<UserDto, "firstName" | "lastName" | "username">): string {
  const first = user.firstName?.trim();
  const last = user.lastName?.trim();
  if (first && last) return `${first[0]}${last[0]}`.toUpperCase();
  return (user.username[0] ?? "?").toUpperCase();
}

/** A user with the lowercase text the search box matches against, computed once per list. */
export interface IndexedUser {
  user: UserDto;
  haystack: string;
}

// Fields are joined with a character nobody types, so a query never matches across two fields.
const SEPARATOR = "\u0000";

/** Spec section 5: the search matches email, username or full name, case-insensitively. */
export function indexUsers(users: readonly UserDto[]): IndexedUser[] {
  return users.map((user) => {
    const fullName = [user.firstName?.trim(), user.lastName?.trim()].filter(Boolean).join(" ");
    return { user, haystack: [user.email ?? "", user.username, fullName].join(SEPARATOR).toLowerCase() };
  });
}

export function filterUsers(index: readonly IndexedUser[], query: string): UserDto[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return index.map((entry) => entry.user);
  const result: UserDto[] = [];
  for (const entry of index) if (entry.haystack.includes(needle)) result.push(entry.user);
  return result;
}
