"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { fetchJson } from "@/components/ui/fetch-json";
import { Field, NewPasswordField } from "@/components/ui/field";
import { ADMIN_QUERY_KEYS, type MemberItem, type Role } from "../types";

/** Adds a person with a first password, which the admin passes on to them. */
export function AddMemberDialog({ open, onClose, passwordMinLength }: { open: boolean; onClose: () => void; passwordMinLength: number }) {
  const queryClient = useQueryClient();
  const [role, setRole] = useState<Role>("member");
  const add = useMutation({
    mutationFn: (body: { email: string; password: string; role: Role }) =>
      fetchJson<{ member: MemberItem }>("/api/admin/members", { method: "POST", body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.members });
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEYS.audit });
      close();
    },
  });

  function close() {
    add.reset();
    setRole("member");
    onClose();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    add.mutate({ email: String(form.get("email") ?? ""), password: String(form.get("password") ?? ""), role });
  }

  return (
    <Dialog open={open} onClose={close} title="Add a member" description="They sign in with this e-mail and password; someone who already has a Shipshape account keeps their own password. Send the password through a channel you trust.">
      <form onSubmit={submit}>
        <Field id="member-email" label="E-mail">
          <input id="member-email" name="email" type="email" className="input" required autoComplete="off" />
        </Field>
        <NewPasswordField id="member-password" name="password" label="First password" minLength={passwordMinLength} hint />
        <Field id="member-role" label="Role">
          <select id="member-role" className="select" value={role} onChange={(event) => setRole(event.target.value === "admin" ? "admin" : "member")}>
            <option value="member">Member — works with document sets</option>
            <option value="admin">Administrator — also manages keys and members</option>
          </select>
        </Field>
        {add.error && <Alert tone="danger">{add.error.message}</Alert>}
        <div className="form-actions" style={{ marginTop: "1rem" }}>
          <Button onClick={close} disabled={add.isPending}>Cancel</Button>
          <Button type="submit" variant="primary" loading={add.isPending}>
            {add.isPending ? "Adding…" : "Add member"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
