/**
 * Multipart bodies streamed as a client sends a large upload: socket-sized
 * pieces, no Content-Length, each piece pulled only when the server reads the
 * one before (highWaterMark 0), so a test can look at storage while the body
 * is still arriving.
 */
const STREAMED_FORM_BOUNDARY = "----shipshape-streamed-form";
/** What a client's socket hands the server at a time. */
const PIECE_BYTES = 64 * 1024;

export type FormPart = { field: string; name: string; bytes: Uint8Array; type?: string } | { field: string; value: string };

export interface StreamedForm {
  body: ReadableStream<Uint8Array>;
  /** What `probe` returned, once the body reached `probeAt` (undefined if it never did: refused earlier). */
  probed?: Promise<number>;
}

export interface StreamOptions {
  /** Run `probe` before sending the piece that holds this byte of the body (default: the last piece of the form). */
  probeAt?: number;
  probe?: () => Promise<number>;
  /** The body breaks off (a client gone) after this many bytes. */
  cutAfter?: number;
  /** The body ends here, without the rest of the form. */
  endEarly?: number;
}

/** A PDF by its header, then bytes that repeat nowhere within a chunk (a misplaced chunk would show). */
export function pdfOf(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let state = 0x9e3779b9;
  for (let i = 0; i < size; i++) {
    state = (state * 1664525 + 1013904223) >>> 0;
    bytes[i] = state >>> 24;
  }
  bytes.set(new TextEncoder().encode("%PDF-1.7\n"), 0);
  return bytes;
}

function formBytes(parts: FormPart[]): Uint8Array {
  const encoder = new TextEncoder();
  const pieces: Uint8Array[] = [];
  for (const part of parts) {
    if ("value" in part) {
      pieces.push(encoder.encode(`--${STREAMED_FORM_BOUNDARY}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`));
      continue;
    }
    const type = part.type ? `Content-Type: ${part.type}\r\n` : "";
    pieces.push(encoder.encode(`--${STREAMED_FORM_BOUNDARY}\r\nContent-Disposition: form-data; name="${part.field}"; filename="${part.name}"\r\n${type}\r\n`));
    pieces.push(part.bytes, encoder.encode("\r\n"));
  }
  pieces.push(encoder.encode(`--${STREAMED_FORM_BOUNDARY}--\r\n`));
  return Buffer.concat(pieces);
}

export function streamedForm(parts: FormPart[], options: StreamOptions = {}): StreamedForm {
  const bytes = formBytes(parts);
  const probeAt = options.probeAt ?? bytes.length - 1;
  const streamed: StreamedForm = { body: undefined as unknown as ReadableStream<Uint8Array> };
  let offset = 0;
  streamed.body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (options.cutAfter !== undefined && offset >= options.cutAfter) return controller.error(new Error("client went away"));
        if ((options.endEarly !== undefined && offset >= options.endEarly) || offset >= bytes.length) return controller.close();
        const end = Math.min(offset + PIECE_BYTES, bytes.length);
        if (options.probe && streamed.probed === undefined && end > probeAt) {
          streamed.probed = options.probe();
          await streamed.probed;
        }
        controller.enqueue(bytes.slice(offset, end));
        offset = end;
      },
    },
    { highWaterMark: 0 },
  );
  return streamed;
}

/** A POST of a streamed form to one of the API's routes. */
export function streamedRequest(url: string, key: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Request {
  return new Request(url, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": `multipart/form-data; boundary=${STREAMED_FORM_BOUNDARY}`, ...headers },
    body,
    duplex: "half",
  } as RequestInit);
}
