"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Alert, Button, describedBy, Field, fetchJson } from "@/components/ui";
import type { SetSummary } from "@/lib/sets/types";
import { FileDropzone } from "./file-dropzone";
import { formatBytes } from "./format";
import { stashUploads } from "./pending-uploads";

/** Name, optional presentation date and the files: the set is created, then the set page uploads the files. */
export function NewSetForm() {
  const router = useRouter();
  const [name, setName] = useState("");
  const [date, setDate] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const create = useMutation({
    mutationFn: () => fetchJson<SetSummary>("/api/sets", { method: "POST", body: { name, presentationDate: date || null } }),
    onSuccess: (set) => {
      stashUploads(set.id, files);
      router.push(`/sets/${set.id}`);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate();
  }

  return (
    <form className="panel new-set-form" onSubmit={submit} aria-label="New document set">
      <div className="panel-body">
        <div className="form-row">
          <Field id="set-name" label="Set name" hint="The credit number and shipment, for example.">
            <input
              id="set-name"
              className="input"
              required
              maxLength={200}
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="LC 4471/26 — rice to Jebel Ali"
              aria-describedby={describedBy("set-name", { hint: true })}
            />
          </Field>
          <Field id="set-date" label="Presentation date (optional)" hint="Dates are checked against it; today when empty.">
            <input
              id="set-date"
              className="input"
              type="date"
              value={date}
              onChange={(e) => setDate(e.target.value)}
              aria-describedby={describedBy("set-date", { hint: true })}
            />
          </Field>
        </div>
        <FileDropzone onFiles={(chosen) => setFiles((current) => [...current, ...chosen])} />
        {files.length > 0 && (
          <ul className="chosen-files" aria-label="Chosen files">
            {files.map((file, i) => (
              <li key={`${file.name}-${i}`}>
                <span className="chosen-name">{file.name}</span>
                <span className="muted">{formatBytes(file.size)}</span>
                <Button size="sm" variant="ghost" aria-label={`Remove ${file.name}`} onClick={() => setFiles(files.filter((_, j) => j !== i))}>
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
        {create.error && <Alert tone="danger" title="The set was not created">{create.error.message}</Alert>}
        <div className="form-actions">
          <Button variant="primary" type="submit" loading={create.isPending || create.isSuccess}>
            {files.length ? `Create set and upload ${files.length} file${files.length > 1 ? "s" : ""}` : "Create set"}
          </Button>
        </div>
      </div>
    </form>
  );
}
