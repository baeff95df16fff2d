"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { fetchJson } from "@/components/ui/fetch-json";
import { formatDate } from "@/components/ui/format";
import { Panel } from "@/components/ui/panel";
import { LoadingBlock } from "@/components/ui/spinner";
import { ADMIN_QUERY_KEYS, type MemberItem, type Role } from "../types";
import { AddMemberDialog } from "./add-member-dialog";

interface RoleChange {
  member: MemberItem;
  role: Role;
}

export function MembersPanel({ currentUserId, passwordMinLength }: { currentUserId: string; passwordMinLength: number }) {
  const queryClient = useQueryClient();
  const members = useQuery({
    queryKey: ADMIN_QUERY_KEYS.members,
    queryFn: ({ signal }) => fetchJson<{ members: MemberItem[] }>("/api/admin/members", { signal }).then((body) => body.members),
  });
  const [adding, setAdding] = useState(false);
  const [change, setChange] = useState<RoleChange | null>(null);
  const changeRole = useMutation({
    mutationFn: ({ member, role }: RoleChange) =>
      fetchJson(`/api/admin/members/${encodeURIComponent(member.userId)}`, { method: "PATCH", body: { role } }),
    onSuccess: (_data, { member }) => {
      setChange(null);
      // Demoting oneself ends one's admin access: leave the admin pages.
      if (member.userId === currentUserId) window.location.assign("/");
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.members });
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.audit });
    },
  });

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
                  <th scope="col">Member since</th>
                  <th scope="col"><span className="visually-hidden">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {members.data.map((member) => {
                  const nextRole: Role = member.role === "admin" ? "member" : "admin";
                  return (
                    <tr key={member.userId}>
                      <td>
                        {member.email} {member.userId === currentUserId && <span className="muted">(you)</span>}
                      </td>
                      <td>
                        <Badge tone={member.role === "admin" ? "info" : "neutral"}>{member.role}</Badge>
                      </td>
                      <td className="nowrap">{formatDate(member.joinedAt)}</td>
                      <td className="actions">
                        <Button
                          size="sm"
                          variant="ghost"
                          onClick={() => {
                            changeRole.reset();
                            setChange({ member, role: nextRole });
                          }}
                          aria-label={`${nextRole === "admin" ? "Make administrator" : "Make member"}: ${member.email}`}
                        >
                          {nextRole === "admin" ? "Make administrator" : "Make member"}
                        </Button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
      <AddMemberDialog open={adding} onClose={() => setAdding(false)} passwordMinLength={passwordMinLength} />
      <ConfirmDialog
        open={change !== null}
        title={change?.role === "admin" ? "Make this person an administrator?" : "Remove administrator rights?"}
        confirmLabel={change?.role === "admin" ? "Make administrator" : "Make member"}
        tone={change?.role === "admin" ? "primary" : "danger"}
        pending={changeRole.isPending}
        error={changeRole.error?.message}
        onConfirm={() => change && changeRole.mutate(change)}
        onCancel={() => setChange(null)}
      >
        {change && (
          <p style={{ margin: 0 }}>
            {change.role === "admin"
              ? `${change.member.email} will be able to issue and revoke API keys and manage members.`
              : `${change.member.email} will keep access to document sets but no longer manage keys or members.`}
            {change.member.userId === currentUserId && change.role === "member" && " You will lose access to this page."}
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}
