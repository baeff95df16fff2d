"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { fetchJson } from "@/components/ui/fetch-json";
import { formatDate } from "@/components/ui/format";
import { Panel } from "@/components/ui/panel";
import { LoadingBlock } from "@/components/ui/spinner";
import { ADMIN_QUERY_KEYS, type MemberItem } from "../types";
import { AddMemberDialog } from "./add-member-dialog";
import { MemberActionDialog } from "./member-action-dialog";
import { ACTION_TEXT, actionsFor, runMemberAction, type MemberAction } from "./member-actions";

export function MembersPanel({ currentUserId, passwordMinLength }: { currentUserId: string; passwordMinLength: number }) {
  const queryClient = useQueryClient();
  const members = useQuery({
    queryKey: ADMIN_QUERY_KEYS.members,
    queryFn: ({ signal }) => fetchJson<{ members: MemberItem[] }>("/api/admin/members", { signal }).then((body) => body.members),
  });
  const [adding, setAdding] = useState(false);
  const [action, setAction] = useState<MemberAction | null>(null);
  const act = useMutation({
    mutationFn: runMemberAction,
    onSuccess: (result, { kind, member }) => {
      // Demoting oneself ends one's admin access: leave the admin pages.
      if (kind === "make-member" && member.userId === currentUserId) window.location.assign("/");
      // A reset keeps the dialog open to show the temporary password once.
      if (!result.temporaryPassword) setAction(null);
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.members });
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.audit });
    },
  });
  const close = () => {
    setAction(null);
    act.reset();
  };

  const addButton = (
    <Button variant="primary" onClick={() => setAdding(true)}>
      Add member
    </Button>
  );

  return (
    <>
      <Panel title="Members" description="People who can sign in to your organization. Administrators also manage keys and members." actions={addButton} flush>
        {members.isPending ? (
          <LoadingBlock label="Loading members…" />
        ) : members.isError ? (
          <div className="panel-body">
            <ErrorState title="The members could not be loaded" message={members.error.message} onRetry={() => void members.refetch()} />
          </div>
        ) : members.data.length === 0 ? (
          <EmptyState title="No members">Add the people who check documents in your team.</EmptyState>
        ) : (
          <div className="table-scroll">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">E-mail</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Member since</th>
                  <th scope="col"><span className="visually-hidden">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {members.data.map((member) => (
                  <tr key={member.userId}>
                    <td>
                      {member.email} {member.userId === currentUserId && <span className="muted">(you)</span>}
                    </td>
                    <td>
                      <Badge tone={member.role === "admin" ? "info" : "neutral"}>{member.role}</Badge>
                    </td>
                    <td>
                      <Badge tone={member.disabled ? "warning" : "success"}>{member.disabled ? "disabled" : "active"}</Badge>
                    </td>
                    <td className="nowrap">{formatDate(member.joinedAt)}</td>
                    <td className="actions">
                      {actionsFor(member, member.userId === currentUserId).map((kind) => (
                        <Button
                          key={kind}
                          size="sm"
                          variant="ghost"
                          onClick={() => {
                            act.reset();
                            setAction({ kind, member });
                          }}
                          aria-label={`${ACTION_TEXT[kind].label}: ${member.email}`}
                        >
                          {ACTION_TEXT[kind].label}
                        </Button>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
      <AddMemberDialog open={adding} onClose={() => setAdding(false)} passwordMinLength={passwordMinLength} />
      <MemberActionDialog
        action={action}
        pending={act.isPending}
        error={act.error?.message}
        temporaryPassword={act.data?.temporaryPassword}
        selfDemotion={action?.kind === "make-member" && action.member.userId === currentUserId}
        onConfirm={() => action && act.mutate(action)}
        onClose={close}
      />
    </>
  );
}
