"use client";

import { ErrorState } from "@/components/ui/error-state";

/**
 * A page that failed on the server. Next passes only a digest (the server log
 * carries the rest), so the message names it for a support request.
 */
export default function AppError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <ErrorState
      title="This page could not be shown"
      message={`Something went wrong on our side. Try again; if it keeps happening, quote reference ${error.digest ?? "unknown"}.`}
      onRetry={reset}
    />
  );
}
