import type { ReactNode } from "react";
import { AppHeader } from "@/components/app-shell/app-header";
import { Providers } from "@/components/providers";
import { requireMember } from "@/lib/auth/session";

/**
 * The frame of every signed-in page. The session check here only decides what
 * the frame shows: each page and route handler still calls requireMember or
 * requireAdmin itself, because layouts are not re-run on every navigation.
 */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const session = await requireMember();
  return (
    <Providers>
      <AppHeader session={session} />
      <main className="app-main" id="main">
        {children}
      </main>
    </Providers>
  );
}
