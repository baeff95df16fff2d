/**
 * One file to POST /api/sets/{id}/files through XMLHttpRequest, the one
 * browser API that reports upload progress. Resolves with the stored file or
 * rejects with the server's `detail`.
 */
import { RequestError } from "@/components/ui/fetch-json";
import type { SetFileView } from "@/lib/sets/types";

export function uploadFile(setId: string, file: File, onProgress: (fraction: number) => void): Promise<SetFileView> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/sets/${encodeURIComponent(setId)}/files`);
    xhr.responseType = "json";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = xhr.response as (SetFileView & { detail?: string }) | null;
      if (xhr.status === 201 && body) resolve(body);
      else reject(new RequestError(xhr.status, body?.detail ?? `The server answered ${xhr.status}.`));
    };
    xhr.onerror = () => reject(new RequestError(0, "The upload was interrupted. Check your connection and try again."));
    const form = new FormData();
    form.set("file", file, file.name);
    xhr.send(form);
  });
}
