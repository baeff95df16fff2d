"use client";

import { signOut } from "next-auth/react";
import { useState } from "react";
import { Button } from "@/components/ui/button";

/** Ends the session through next-auth (CSRF-checked POST), then shows the sign-in page. */
export function SignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <Button
      size="sm"
      variant="ghost"
      loading={pending}
      onClick={() => {
        setPending(true);
        void signOut({ callbackUrl: "/signin" });
      }}
    >
      Sign out
    </Button>
  );
}
