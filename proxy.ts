import type { NextRequest } from "next/server";
import { withPageSecurityHeaders } from "@/lib/http/content-security-policy";

/** Every page gets its own CSP nonce (lib/http/content-security-policy.ts). */
export function proxy(request: NextRequest) {
  return withPageSecurityHeaders(request);
}

export const config = {
  matcher: [
    {
      // Pages only: API answers, build assets and files set their own headers (next.config.ts).
      source: "/((?!api/|v1/|_next/static|_next/image|favicon.ico).*)",
      // A prefetch is not rendered into a page, so it needs no nonce of its own.
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
