import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";

/** next-auth's endpoints: CSRF token, credentials callback, session, sign-out. */
async function handle(request: Request, context: { params: Promise<{ nextauth: string[] }> }): Promise<Response> {
  return NextAuth(authOptions())(request, context);
}

export { handle as GET, handle as POST };
