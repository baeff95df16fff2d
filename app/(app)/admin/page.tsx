import type { Metadata } from "next";
import { requireAdmin } from "@/lib/auth/session";
import { KeysPanel } from "./keys-panel";
import { WebhookSecretPanel } from "./webhook-secret-panel";

export const metadata: Metadata = { title: "API keys — Shipshape" };

export default async function AdminKeysPage() {
  await requireAdmin();
  return (
    <>
      <KeysPanel />
      <WebhookSecretPanel />
    </>
  );
}
