"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "@/components/ui";
import type { SetView } from "@/lib/sets/types";

export function setQueryKey(setId: string) {
  return ["set", setId] as const;
}

/**
 * A checker's change to the set (a corrected value, a review mark, a
 * decision). The route answers with the whole set as it now stands, which
 * replaces the cached one: the comparison, findings and status follow at once.
 */
export function useSetChange<Body>(setId: string, url: string, method: "PUT" | "POST") {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => fetchJson<SetView>(url, { method, body }),
    onSuccess: (view) => client.setQueryData(setQueryKey(setId), view),
  });
}

export function fieldsUrl(setId: string, fileId: string): string {
  return `/api/sets/${encodeURIComponent(setId)}/files/${encodeURIComponent(fileId)}/fields`;
}

export function reviewsUrl(setId: string, fileId: string): string {
  return `/api/sets/${encodeURIComponent(setId)}/files/${encodeURIComponent(fileId)}/reviews`;
}

export function decisionsUrl(setId: string): string {
  return `/api/sets/${encodeURIComponent(setId)}/decisions`;
}
