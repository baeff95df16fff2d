import type { SessionUser } from "@/lib/auth/session";
import { Badge } from "@/components/ui/badge";
import { Brand } from "./brand";
import { NavLink } from "./nav-link";
import { SignOutButton } from "./sign-out-button";

/** The signed-in app's top bar. Admin links only show to admins; the admin pages check again themselves. */
export function AppHeader({ session }: { session: SessionUser }) {
  return (
    <header className="app-header">
      <div className="app-header-inner">
        <Brand />
        <nav className="app-nav" aria-label="Main">
          <NavLink href="/sets">Document sets</NavLink>
          {session.role === "admin" && <NavLink href="/admin">API keys &amp; members</NavLink>}
          <NavLink href="/docs">API reference</NavLink>
        </nav>
        <div className="app-user">
          <span className="app-user-label">
            Signed in as{" "}
            <a className="app-user-email" href="/account" title="Your account: password and sessions">
              {session.email}
            </a>
          </span>
          <Badge tone={session.role === "admin" ? "info" : "neutral"} title={`Signed in as ${session.email}`}>
            {session.role}
          </Badge>
          <SignOutButton />
        </div>
      </div>
    </header>
  );
}
