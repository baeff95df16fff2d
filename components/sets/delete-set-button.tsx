"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button, ConfirmDialog, fetchJson } from "@/components/ui";

/** Deletes the set after asking; its files, analyses and corrections go with it. */
export function DeleteSetButton({ setId, name }: { setId: string; name: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const remove = useMutation({
    mutationFn: () => fetchJson(`/api/sets/${encodeURIComponent(setId)}`, { method: "DELETE" }),
    onSuccess: () => {
      router.push("/sets");
      router.refresh();
    },
  });
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>Delete set</Button>
      <ConfirmDialog
        open={open}
        title={`Delete “${name}”?`}
        confirmLabel="Delete set"
        tone="danger"
        pending={remove.isPending || remove.isSuccess}
        error={remove.error?.message}
        onConfirm={() => remove.mutate()}
        onCancel={() => {
          setOpen(false);
          remove.reset();
        }}
      >
        The files, their analyses and any corrections are deleted. This cannot be undone.
      </ConfirmDialog>
    </>
  );
}
