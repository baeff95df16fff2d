"use client";

import { Badge, Spinner } from "@/components/ui";
import type { SetFileView } from "@/lib/sets/types";
import { describeProgress, formatBytes } from "./format";
import type { UploadState } from "./use-uploads";

/** Every file of the set with its state: sending (with progress), refused, queued or in analysis, analysed, failed. */
export function UploadList({ files, uploads }: { files: SetFileView[]; uploads: UploadState[] }) {
  const stored = new Set(files.map((f) => f.id));
  const inFlight = uploads.filter((u) => !(u.fileId && stored.has(u.fileId)));
  if (files.length === 0 && inFlight.length === 0) {
    return <p className="upload-empty muted">No files yet. Add the presentation: one PDF holding every document, or one file per document.</p>;
  }
  return (
    <ul className="file-rows" aria-label="Files of this set">
      {files.map((file) => (
        <li key={file.id} className="file-row" data-status={file.status}>
          <span className="file-name" title={file.fileName}>{file.fileName}</span>
          <span className="file-meta">{file.format.toUpperCase()} · {formatBytes(file.sizeBytes)}</span>
          <FileStatus file={file} />
        </li>
      ))}
      {inFlight.map((upload) => (
        <li key={upload.key} className="file-row" data-status={upload.state}>
          <span className="file-name" title={upload.name}>{upload.name}</span>
          <span className="file-meta">{formatBytes(upload.size)}</span>
          {upload.state === "refused" ? (
            <span className="file-status"><Badge tone="danger">Refused</Badge> <span className="file-error">{upload.error}</span></span>
          ) : (
            <span className="file-status">
              <progress className="upload-progress" max={1} value={upload.progress} aria-label={`Uploading ${upload.name}`} />
              <span className="muted">{upload.state === "queued" ? "Waiting" : `${Math.round(upload.progress * 100)}%`}</span>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

function FileStatus({ file }: { file: SetFileView }) {
  switch (file.status) {
    case "uploaded":
    case "analyzing": {
      const label = file.status === "uploaded" ? "Queued for analysis" : "Analysing";
      if (!file.progress) return <span className="file-status"><Spinner label={label} /></span>;
      const text = describeProgress(file.progress);
      return (
        <span className="file-status">
          <progress className="upload-progress" max={file.progress.pagesTotal} value={file.progress.pagesDone} aria-label={`Reading ${file.fileName}`} aria-valuetext={text} />
          <span className="muted" role="status" aria-live="polite">Analysing · {text}</span>
        </span>
      );
    }
    case "failed":
      return <span className="file-status"><Badge tone="danger">Failed</Badge> <span className="file-error">{file.errorDetail}</span></span>;
    case "done":
      return (
        <span className="file-status">
          <Badge tone="success">Analysed</Badge>
          <span className="muted">
            {file.splits.length} document{file.splits.length === 1 ? "" : "s"} · {file.pageCount} page{file.pageCount === 1 ? "" : "s"}
          </span>
        </span>
      );
  }
}
