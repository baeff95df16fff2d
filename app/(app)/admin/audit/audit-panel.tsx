"use client";

import { useQuery } from "@tanstack/react-query";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { fetchJson } from "@/components/ui/fetch-json";
import { formatDateTime } from "@/components/ui/format";
import { Panel } from "@/components/ui/panel";
import { LoadingBlock } from "@/components/ui/spinner";
import { ADMIN_QUERY_KEYS, type AuditItem } from "../types";
import { describeAction, describeDetail } from "./describe-event";

export function AuditPanel() {
  const events = useQuery({
    queryKey: ADMIN_QUERY_KEYS.audit,
    queryFn: ({ signal }) => fetchJson<{ events: AuditItem[] }>("/api/admin/audit", { signal }).then((body) => body.events),
  });

  return (
    <Panel title="Audit log" description="The latest 100 security events in your organization: sign-ins, keys and membership changes." flush>
      {events.isPending ? (
        <LoadingBlock label="Loading events…" />
      ) : events.isError ? (
        <div className="panel-body">
          <ErrorState title="The audit log could not be loaded" message={events.error.message} onRetry={() => void events.refetch()} />
        </div>
      ) : events.data.length === 0 ? (
        <EmptyState title="No events yet">Sign-ins, issued and revoked keys, and membership changes will appear here.</EmptyState>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">By</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {events.data.map((event) => (
                <tr key={event.id}>
                  <td className="nowrap">{formatDateTime(event.createdAt)}</td>
                  <td>{describeAction(event.action)}</td>
                  <td>{event.actorEmail ?? <span className="muted">{actorLabel(event.actor)}</span>}</td>
                  <td className="muted">{describeDetail(event)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}

function actorLabel(actor: string): string {
  if (actor === "operator") return "Operator (command line)";
  if (actor === "onboarding") return "First-run setup";
  if (actor === "anonymous") return "Unknown";
  if (actor.startsWith("key_")) return "API key";
  return actor;
}
