"use client";

import { useCallback, useRef, useState } from "react";
import { uploadFile } from "./upload-file";

/** Two uploads at a time: the server analyses at most two files at once anyway. */
const PARALLEL_UPLOADS = 2;

export interface UploadState {
  key: string;
  name: string;
  size: number;
  /** 0..1 while sending. */
  progress: number;
  state: "queued" | "sending" | "sent" | "refused";
  error?: string;
  /** The stored file's id once sent. */
  fileId?: string;
}

/** A queue of uploads to one set with per-file progress; `onSent` runs after each stored file. */
export function useUploads(setId: string, onSent: () => void) {
  const [uploads, setUploads] = useState<UploadState[]>([]);
  const queue = useRef<{ key: string; file: File }[]>([]);
  const active = useRef(0);
  const counter = useRef(0);

  const update = useCallback((key: string, change: Partial<UploadState>) => {
    setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));
  }, []);

  const pump = useCallback(() => {
    while (active.current < PARALLEL_UPLOADS && queue.current.length > 0) {
      const { key, file } = queue.current.shift()!;
      active.current++;
      update(key, { state: "sending" });
      uploadFile(setId, file, (progress) => update(key, { progress }))
        .then((stored) => {
          update(key, { state: "sent", progress: 1, fileId: stored.id });
          onSent();
        })
        .catch((error: Error) => update(key, { state: "refused", error: error.message }))
        .finally(() => {
          active.current--;
          pump();
        });
    }
  }, [setId, onSent, update]);

  const add = useCallback(
    (files: File[]) => {
      const entries = files.map((file) => ({ key: `u${counter.current++}`, file }));
      setUploads((list) => [
        ...list,
        ...entries.map(({ key, file }) => ({ key, name: file.name, size: file.size, progress: 0, state: "queued" as const })),
      ]);
      queue.current.push(...entries);
      pump();
    },
    [pump],
  );

  return { uploads, add };
}
