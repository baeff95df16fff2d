import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Packages that load workers, native addons or data files by path must stay
  // outside the bundle (see README, "Stack notes").
  serverExternalPackages: [
    "pdfjs-dist",
    "tesseract.js",
    "@tesseract.js-data/eng",
    "@electric-sql/pglite",
    "@napi-rs/canvas",
    "pg",
  ],
  poweredByHeader: false,
  // Lets two builds (e.g. a test build beside a running one) live side by side.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
};

export default nextConfig;
