import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";

/** Inside the signed-in app: a missing page, another organization's item, or a page for admins only. */
export default function AppNotFound() {
  return (
    <div className="panel">
      <EmptyState title="Page not found" action={<Link className="btn btn-secondary" href="/sets">Go to document sets</Link>}>
        This page does not exist, or your account does not have access to it.
      </EmptyState>
    </div>
  );
}
