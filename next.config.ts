import type { NextConfig } from "next";

/**
 * Headers every response carries, API and assets included; a page's
 * Content-Security-Policy (with its nonce) and HSTS come from proxy.ts.
 */
export const SECURITY_HEADERS = [
  // Never sniffed into another type (a document served as a script or a page).
  { key: "X-Content-Type-Options", value: "nosniff" },
  // Never framed (clickjacking); the pages' CSP says frame-ancestors 'none' too, for browsers that read only one.
  { key: "X-Frame-Options", value: "DENY" },
  // Set ids and file ids in our URLs are nobody else's business.
  { key: "Referrer-Policy", value: "same-origin" },
];

const nextConfig: NextConfig = {
  // Packages that load workers, native addons or data files by path must stay
  // outside the bundle: pdfjs-dist (its worker), @embedpdf/pdfium (its WebAssembly file), @napi-rs/canvas (native, renders
  // pages for OCR), PGlite (its WebAssembly and data files), pg (optional native bindings),
  // pg-boss (CommonJS that requires pg at run time), exceljs and fontkit (the set exports: CommonJS
  // with optional requires, and a font engine whose data tables load at run time).
  serverExternalPackages: ["pdfjs-dist", "@embedpdf/pdfium", "@napi-rs/canvas", "@electric-sql/pglite", "pg", "pg-boss", "exceljs", "fontkit"],
  poweredByHeader: false,
  async headers() {
    return [{ source: "/:path*", headers: SECURITY_HEADERS }];
  },
  // Lets two builds (e.g. a test build beside a running one) live side by side.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
};

export default nextConfig;
