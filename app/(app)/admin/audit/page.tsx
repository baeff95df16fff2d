import type { Metadata } from "next";
import { requireAdmin } from "@/lib/auth/session";
import { AuditPanel } from "./audit-panel";

export const metadata: Metadata = { title: "Audit log — Shipshape" };

export default async function AdminAuditPage() {
  await requireAdmin();
  return <AuditPanel />;
}
