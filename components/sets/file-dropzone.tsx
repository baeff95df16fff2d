"use client";

import { useId, useRef, useState, type DragEvent } from "react";

/** What the picker offers; the server decides from the bytes anyway. */
const ACCEPT = ".pdf,.docx,.eml,.png,.jpg,.jpeg,.tif,.tiff,.webp,application/pdf,image/*,message/rfc822";

/** Drop files here, or choose them: the hidden input stays the labelled, keyboard-reachable control. */
export function FileDropzone({ onFiles, compact = false, disabled = false }: { onFiles: (files: File[]) => void; compact?: boolean; disabled?: boolean }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  function drop(event: DragEvent) {
    event.preventDefault();
    setOver(false);
    if (!disabled && event.dataTransfer.files.length) onFiles([...event.dataTransfer.files]);
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the drop target wraps a labelled file input, which is the keyboard path
    <div
      className={`dropzone${over ? " dropzone-over" : ""}${compact ? " dropzone-compact" : ""}`}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <input
        ref={input}
        id={id}
        type="file"
        multiple
        accept={ACCEPT}
        className="visually-hidden"
        disabled={disabled}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = "";
          if (files.length) onFiles(files);
        }}
      />
      <label htmlFor={id} className="dropzone-label">
        <span className="dropzone-title">Drop files here or <span className="dropzone-link">choose files</span></span>
        {!compact && <span className="dropzone-hint">PDF, Word (DOCX), e-mail (EML) or scans (PNG, JPEG, TIFF, WebP). Several at once.</span>}
      </label>
    </div>
  );
}
