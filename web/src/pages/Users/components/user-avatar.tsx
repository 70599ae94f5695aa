import type { UserDto } from "@contract/users";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { initials } from "../lib/user-display";

/** Profile image, else initials (spec section 2). Decorative: the name is printed beside it. */
export function UserAvatar({ user }: { user: UserDto }) {
  return (
    <Avatar aria-hidden="true">
      {user.profileImageUrl && <AvatarImage src={user.profileImageUrl} alt="" referrerPolicy="no-referrer" />}
      <AvatarFallback>{initials(user)}</AvatarFallback>
    </Avatar>
  );
}
