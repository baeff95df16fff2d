import type { Metadata } from "next";
import { requireAdmin } from "@/lib/auth/session";
import { LayoutsPanel } from "./layouts-panel";

export const metadata: Metadata = { title: "Learned layouts — Shipshape" };

export default async function AdminLayoutsPage() {
  await requireAdmin();
  return <LayoutsPanel />;
}
