/** The part of pdfjs-dist's standalone image decoders we use (the package ships no types for this entry). */
declare module "pdfjs-dist/image_decoders/pdf.image_decoders.mjs" {
  export class JpegImage {
    width: number;
    height: number;
    numComponents: number;
    /** Throws a JpegError on a stream it cannot read. */
    parse(data: Uint8Array): void;
    getData(options: { width: number; height: number; forceRGBA?: boolean; forceRGB?: boolean }): Uint8ClampedArray | Uint8Array;
  }
}
