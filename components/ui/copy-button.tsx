"use client";

import { useEffect, useState } from "react";
import { Button, type ButtonProps } from "./button";

/** How long "Copied" stays before the label returns. */
const CONFIRMATION_MS = 2000;

/** Copies `value` to the clipboard and says so; `label` names what is copied for screen readers. */
export function CopyButton({ value, label = "Copy", size = "md", variant = "secondary" }: { value: string; label?: string } & Pick<ButtonProps, "size" | "variant">) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");

  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      // Clipboard access needs a secure context or permission; the value stays selectable by hand.
      setState("failed");
    }
  }

  return (
    <Button size={size} variant={variant} onClick={copy} aria-label={state === "idle" ? label : undefined}>
      <span aria-live="polite">{state === "copied" ? "Copied" : state === "failed" ? "Select and copy" : "Copy"}</span>
    </Button>
  );
}
