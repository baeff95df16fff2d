/**
 * Reads word/document.xml into a flow of blocks: paragraphs (with their font
 * size), table rows (one text per cell), explicit page breaks and pictures.
 * A tolerant tag scan, not a DOM: documents are only read, never rebuilt, and
 * a scan holds no tree of a hostile document in memory.
 */
export type DocxBlock =
  | { kind: "paragraph"; text: string; fontSize: number; tabStops?: number[] }
  | { kind: "row"; cells: string[]; fontSize: number }
  | { kind: "page-break" }
  | { kind: "image"; relationshipId: string; heightPoints: number };

export interface DocxFlow {
  blocks: DocxBlock[];
  /** Page size in points from the first section, when stated. */
  pageSize?: [number, number];
  /** Margins in points (top, right, bottom, left) from the first section, when stated. */
  margins?: [number, number, number, number];
}

/** Word's default body size when a run states none (11 pt in current templates). */
const DEFAULT_FONT_SIZE = 11;
/** Headings without an explicit size: Word's built-in Title/Heading 1/Heading 2 sizes. */
const HEADING_SIZES: Record<string, number> = { title: 26, heading1: 16, heading2: 13 };
const TWIPS_PER_POINT = 20;
const EMU_PER_POINT = 12_700;
const PAGE_BREAK = "\f";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (all, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    }
    return ENTITIES[name] ?? all;
  });
}

function attribute(attributes: string, name: string): string | undefined {
  return new RegExp(`${name}="([^"]*)"`).exec(attributes)?.[1];
}

function isOn(attributes: string): boolean {
  const val = attribute(attributes, "w:val");
  return val === undefined || !["0", "false", "off"].includes(val);
}

interface ParagraphState {
  text: string;
  fontSize: number;
  styleSize?: number;
  breakBefore: boolean;
  sectionBreak: boolean;
  /** Custom tab stops in points from the paragraph's left edge (w:tabs), ascending. */
  tabStops: number[];
}

interface CellState {
  texts: string[];
}

/** Parses document.xml; unknown elements are skipped, never fatal. */
export function parseDocumentXml(xml: string): DocxFlow {
  const flow: DocxFlow = { blocks: [] };
  const paragraphs: ParagraphState[] = [];
  const cells: CellState[] = [];
  const rows: { cells: string[]; fontSize: number }[] = [];
  let inText = false;
  let skipDepth = 0;
  let inSection = false;
  let extentHeight = 0;
  // Inside w:tabs a w:tab is a tab stop of the paragraph's properties, not a tab character of a run.
  let inTabs = false;

  const emitText = (text: string, fontSize: number, tabStops: number[] = []) => {
    const cell = cells[cells.length - 1];
    if (cell) {
      cell.texts.push(text.replace(new RegExp(PAGE_BREAK, "g"), " "));
      const row = rows[rows.length - 1];
      if (row) row.fontSize = Math.max(row.fontSize, fontSize);
      return;
    }
    text.split(PAGE_BREAK).forEach((part, i) => {
      if (i > 0) flow.blocks.push({ kind: "page-break" });
      if (part.trim()) flow.blocks.push({ kind: "paragraph", text: part, fontSize, ...(tabStops.length ? { tabStops } : {}) });
    });
  };

  const tokens = /<(\/?)([\w:.-]+)([^>]*?)(\/?)>|([^<]+)/g;
  for (let m = tokens.exec(xml); m; m = tokens.exec(xml)) {
    const [, closing, name, attrs = "", selfClosing, text] = m;
    if (text !== undefined) {
      if (inText && skipDepth === 0 && paragraphs.length > 0) paragraphs[paragraphs.length - 1]!.text += decodeEntities(text);
      continue;
    }
    // mc:Fallback repeats what mc:Choice holds (text boxes, drawings): read one of them.
    if (name === "mc:Fallback") {
      if (!selfClosing) skipDepth += closing ? -1 : 1;
      continue;
    }
    if (skipDepth > 0) continue;
    const paragraph = paragraphs[paragraphs.length - 1];
    if (closing) {
      if (name === "w:t") inText = false;
      else if (name === "w:tabs") inTabs = false;
      else if (name === "w:sectPr") inSection = false;
      else if (name === "w:p" && paragraph) {
        paragraphs.pop();
        if (paragraph.breakBefore && cells.length === 0) flow.blocks.push({ kind: "page-break" });
        emitText(paragraph.text, paragraph.fontSize || paragraph.styleSize || DEFAULT_FONT_SIZE, paragraph.tabStops);
        if (paragraph.sectionBreak && cells.length === 0) flow.blocks.push({ kind: "page-break" });
      } else if (name === "w:tc") {
        const cell = cells.pop();
        const row = rows[rows.length - 1];
        if (cell && row) row.cells.push(cell.texts.join(" ").replace(/\s+/g, " ").trim());
      } else if (name === "w:tr") {
        const row = rows.pop();
        const outer = cells[cells.length - 1];
        // A table nested in a cell becomes text of that cell; only outermost rows are rows.
        if (row && outer) outer.texts.push(row.cells.join(" "));
        else if (row && row.cells.some((c) => c.length > 0)) flow.blocks.push({ kind: "row", cells: row.cells, fontSize: row.fontSize || DEFAULT_FONT_SIZE });
      }
      continue;
    }
    switch (name) {
      case "w:p":
        if (!selfClosing) paragraphs.push({ text: "", fontSize: 0, breakBefore: false, sectionBreak: false, tabStops: [] });
        break;
      case "w:t":
        inText = !selfClosing;
        break;
      case "w:tabs":
        inTabs = !selfClosing;
        break;
      case "w:tab": {
        if (!paragraph) break;
        if (!inTabs) {
          paragraph.text += "\t";
          break;
        }
        const position = Number(attribute(attrs, "w:pos")) / TWIPS_PER_POINT;
        if (attribute(attrs, "w:val") !== "clear" && position > 0) paragraph.tabStops = [...paragraph.tabStops, position].sort((a, b) => a - b);
        break;
      }
      case "w:br":
      case "w:cr":
        if (paragraph) paragraph.text += attribute(attrs, "w:type") === "page" ? PAGE_BREAK : "\n";
        break;
      case "w:sz": {
        const halfPoints = Number(attribute(attrs, "w:val"));
        if (paragraph && halfPoints > 0) paragraph.fontSize = Math.max(paragraph.fontSize, halfPoints / 2);
        break;
      }
      case "w:pStyle": {
        const style = (attribute(attrs, "w:val") ?? "").toLowerCase().replace(/[^a-z0-9]/g, "");
        if (paragraph && HEADING_SIZES[style]) paragraph.styleSize = HEADING_SIZES[style];
        break;
      }
      case "w:pageBreakBefore":
        if (paragraph && isOn(attrs)) paragraph.breakBefore = true;
        break;
      case "w:sectPr":
        inSection = !selfClosing;
        // A section ending inside a paragraph ends a page unless it is continuous (decided at w:type).
        if (paragraph) paragraph.sectionBreak = true;
        break;
      case "w:type":
        if (inSection && paragraph && attribute(attrs, "w:val") === "continuous") paragraph.sectionBreak = false;
        break;
      case "w:pgSz": {
        const w = Number(attribute(attrs, "w:w"));
        const h = Number(attribute(attrs, "w:h"));
        if (!flow.pageSize && w > 0 && h > 0) flow.pageSize = [w / TWIPS_PER_POINT, h / TWIPS_PER_POINT];
        break;
      }
      case "w:pgMar": {
        const sides = ["w:top", "w:right", "w:bottom", "w:left"].map((side) => Number(attribute(attrs, side)) / TWIPS_PER_POINT);
        if (!flow.margins && sides.every((v) => v >= 0)) flow.margins = sides as [number, number, number, number];
        break;
      }
      case "w:tr":
        if (!selfClosing) rows.push({ cells: [], fontSize: 0 });
        break;
      case "w:tc":
        if (!selfClosing) cells.push({ texts: [] });
        break;
      case "wp:extent":
        extentHeight = Number(attribute(attrs, "cy")) / EMU_PER_POINT || 0;
        break;
      case "a:blip": {
        const id = attribute(attrs, "r:embed");
        if (id) flow.blocks.push({ kind: "image", relationshipId: id, heightPoints: extentHeight });
        break;
      }
    }
  }
  return flow;
}
