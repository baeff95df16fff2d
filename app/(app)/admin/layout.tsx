import type { ReactNode } from "react";
import { NavLink } from "@/components/app-shell/nav-link";
import { PageHeader } from "@/components/ui/page-header";
import { requireAdmin } from "@/lib/auth/session";

/** The admin area's frame; every page below still calls requireAdmin itself. */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  await requireAdmin();
  return (
    <>
      <PageHeader title="API keys & members" description="Issue and revoke API keys, manage who can sign in, forget learned layouts, and review security events." />
      <nav className="sub-nav" aria-label="Administration">
        <NavLink href="/admin" exact>API keys</NavLink>
        <NavLink href="/admin/members">Members</NavLink>
        <NavLink href="/admin/layouts">Learned layouts</NavLink>
        <NavLink href="/admin/audit">Audit log</NavLink>
      </nav>
      {children}
    </>
  );
}
