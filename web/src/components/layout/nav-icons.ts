import {
  BrainCircuit,
  KeyRound,
  LayoutDashboard,
  MessagesSquare,
  Network,
  Radio,
  ScrollText,
  Settings,
  Users,
  type LucideIcon,
} from "lucide-react";
import type { NavPath } from "@contract/navigation";

/** One icon per sidebar entry (the entries themselves come from contract/navigation.ts). */
export const NAV_ICONS: Record<NavPath, LucideIcon> = {
  "/": LayoutDashboard,
  "/chat": MessagesSquare,
  "/ai-providers": BrainCircuit,
  "/users": Users,
  "/oauth-clients": KeyRound,
  "/api-endpoints": Network,
  "/sse-connections": Radio,
  "/logs": ScrollText,
  "/configuration": Settings,
};
