import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";
import "@/components/ui/ui.css";
import "@/components/app-shell/app-shell.css";

// Every page renders per request: its scripts carry that response's CSP nonce (proxy.ts), which a page
// rendered at build time could not.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Shipshape",
  description: "Reads trade documents presented under a letter of credit: splits, classifies and extracts them.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
