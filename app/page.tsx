import { redirect } from "next/navigation";
import { getSession } from "@/lib/auth/session";

// Depends on the visitor's session cookie: never prerendered.
export const dynamic = "force-dynamic";

/** The front door: the document sets for a signed-in user, the sign-in page for anyone else. */
export default async function HomePage() {
  redirect((await getSession()) ? "/sets" : "/signin");
}
