import type { Metadata } from "next";
import { requireAdmin } from "@/lib/auth/session";
import { PASSWORD_MIN_LENGTH } from "@/lib/services/create-user";
import { MembersPanel } from "./members-panel";

export const metadata: Metadata = { title: "Members — Shipshape" };

export default async function AdminMembersPage() {
  const session = await requireAdmin();
  return <MembersPanel currentUserId={session.userId} passwordMinLength={PASSWORD_MIN_LENGTH} />;
}
