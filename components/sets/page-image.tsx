"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import { loadPdfDocument } from "./pdf-document";

/** Image formats every browser draws itself (TIFF is not one of them). */
const BROWSER_IMAGES = new Set(["png", "jpeg", "webp"]);
/** Start rendering a thumbnail this far before it scrolls into view. */
const PRELOAD_MARGIN = "400px";

export interface PageSource {
  url: string;
  /** The page drawn from its text by the server: what formats without a page image show. */
  sheetUrl: string;
  format: string;
  page: number;
  /** The page's size in points (or pixels), for the frame's shape before anything is drawn. */
  size: { width: number; height: number } | undefined;
}

/**
 * One page at a given CSS width: drawn by pdfjs for PDFs, by the browser for
 * images, and from the text the engine read for formats with no page image
 * (Word, e-mail, TIFF and the later pages of other images). `children` are overlays positioned in fractions of the page.
 */
export function PageImage({ source, width, alt, children }: { source: PageSource; width: number; alt: string; children?: ReactNode }) {
  const ratio = source.size ? source.size.height / source.size.width : Math.SQRT2;
  const drawable = source.format === "pdf" || (BROWSER_IMAGES.has(source.format) && source.page === 1);
  return (
    <div className="page-frame" style={{ width, height: Math.round(width * ratio) }}>
      {source.format === "pdf" ? (
        <PdfCanvas url={source.url} page={source.page} width={width} alt={alt} />
      ) : drawable ? (
        <img src={source.url} alt={alt} width={width} className="page-raster" />
      ) : (
        <img src={source.sheetUrl} alt={alt} width={width} loading="lazy" className="page-raster" />
      )}
      {children}
    </div>
  );
}

function PdfCanvas({ url, page, width, alt }: { url: string; page: number; width: number; alt: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [visible, setVisible] = useState(false);
  const [state, setState] = useState<"drawing" | "drawn" | "failed">("drawing");

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        setVisible(true);
        observer.disconnect();
      }
    }, { rootMargin: PRELOAD_MARGIN });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!visible) return;
    let cancelled = false;
    let cancelRender: (() => void) | undefined;
    (async () => {
      const pdf = await loadPdfDocument(url);
      const pdfPage = await pdf.getPage(page);
      const element = canvas.current;
      if (cancelled || !element) return;
      const scale = (width / pdfPage.getViewport({ scale: 1 }).width) * (window.devicePixelRatio || 1);
      const viewport = pdfPage.getViewport({ scale });
      element.width = Math.floor(viewport.width);
      element.height = Math.floor(viewport.height);
      const task = pdfPage.render({ canvas: element, viewport });
      cancelRender = () => task.cancel();
      await task.promise;
      if (!cancelled) setState("drawn");
    })().catch((error: unknown) => {
      if (!cancelled && (error as { name?: string }).name !== "RenderingCancelledException") setState("failed");
    });
    return () => {
      cancelled = true;
      cancelRender?.();
    };
  }, [visible, url, page, width]);

  return (
    <>
      <canvas ref={canvas} className="page-canvas" role="img" aria-label={alt} data-state={state} />
      {state === "failed" && <span className="page-failed">Page could not be drawn</span>}
    </>
  );
}
