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
};

export default nextConfig;
