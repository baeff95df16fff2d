import { Alert } from "./alert";
import { Button } from "./button";

/** A failed load: what failed, the server's reason, and a retry when the caller can offer one. */
export function ErrorState({ title = "Something went wrong", message, onRetry }: { title?: string; message?: string; onRetry?: () => void }) {
  return (
    <Alert
      tone="danger"
      title={title}
      action={onRetry && <Button size="sm" onClick={onRetry}>Try again</Button>}
    >
      {message}
    </Alert>
  );
}
