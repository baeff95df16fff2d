/**
 * A generated presentation in one PDF with one planted discrepancy: the
 * certificate of weight states a gross weight other than every other
 * document's. It renders through the fixture generator's own renderers, with
 * the shipment's gross weight changed for that one document only.
 */
import type { DocumentTypeId } from "@/lib/analysis";
import { PageWriter } from "@/test/fixtures/generator/page-writer";
import { Rng } from "@/test/fixtures/generator/random";
import { drawMark } from "@/test/fixtures/generator/renderers/common";
import { makeContext } from "@/test/fixtures/generator/renderers/context";
import { rendererOf } from "@/test/fixtures/generator/renderers/index";
import { buildShipment } from "@/test/fixtures/generator/shipment";

/** The presentation: a credit and the documents it calls for, the certificate of weight last but one. */
const PLANTED_TYPES: readonly DocumentTypeId[] = [
  "letter_of_credit", "commercial_invoice", "bill_of_lading", "packing_list", "certificate_of_origin", "certificate_of_weight", "certificate_of_quality",
];

const SELLER_TYPES: ReadonlySet<DocumentTypeId> = new Set(["commercial_invoice", "packing_list", "contract"]);

export interface PlantedPacket {
  pdf: Uint8Array;
  pageCount: number;
  /** Gross weight every document but the certificate of weight states, and the certificate's. */
  grossKg: number;
  plantedGrossKg: number;
  /** YYYY-MM-DD: the shipment's presentation date, inside the credit's period and validity. */
  presentationDate: string;
}

/** Renders the packet; `extraKg` is added to the certificate of weight's gross weight. */
export async function renderPlantedPacket(seed: number, extraKg: number, types: readonly DocumentTypeId[] = PLANTED_TYPES): Promise<PlantedPacket> {
  const shipment = buildShipment(seed);
  const planted = { ...shipment, grossKg: Math.round((shipment.grossKg + extraKg) * 10) / 10 };
  const root = new Rng(seed);
  const writer = new PageWriter(`planted-${seed}`);
  types.forEach((type, i) => {
    const renderer = rendererOf(type);
    const rng = root.fork(`${i}:${type}`);
    const layout = rng.int(0, renderer.layouts.length - 1);
    const s = type === "certificate_of_weight" ? planted : shipment;
    const ctx = makeContext(type, writer, s, rng, { layout, mark: "none" }, SELLER_TYPES.has(type));
    writer.face = "Helvetica";
    renderer.render(ctx);
    if (!ctx.marked && ctx.mark !== "none") drawMark(ctx);
  });
  const pageCount = writer.pageCount;
  return {
    pdf: await writer.finish(),
    pageCount,
    grossKg: shipment.grossKg,
    plantedGrossKg: planted.grossKg,
    presentationDate: shipment.dates.presentation.toISOString().slice(0, 10),
  };
}
