"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { RequestError } from "./ui/fetch-json";

/** Data on screen this fresh is shown without refetching when a component mounts again. */
const STALE_TIME_MS = 30_000;
/** Transient failures (network, 5xx) are retried this many times; a 4xx never is. */
const MAX_RETRIES = 2;

function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof RequestError && error.status >= 400 && error.status < 500) return false;
  return failureCount < MAX_RETRIES;
}

function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: STALE_TIME_MS, retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** Client-side context for the signed-in app: one TanStack Query client per browser tab. */
export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
