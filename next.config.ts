import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Packages that load workers, native addons or data files by path must stay
  // outside the bundle: pdfjs-dist (its worker), @napi-rs/canvas (native, renders
  // pages for OCR), PGlite (its WebAssembly and data files), pg (optional native bindings),
  // pg-boss (CommonJS that requires pg at run time).
  serverExternalPackages: ["pdfjs-dist", "@napi-rs/canvas", "@electric-sql/pglite", "pg", "pg-boss"],
  poweredByHeader: false,
  // Lets two builds (e.g. a test build beside a running one) live side by side.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
};

export default nextConfig;
