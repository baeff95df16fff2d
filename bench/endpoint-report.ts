/** The endpoint benchmark's table. */
import type { EndpointReport } from "./endpoint";
import { formatTable } from "./report";

const ms = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? "-" : x.toFixed(1));
const ratio = (a: number | undefined, b: number) => (a === undefined ? "-" : `${(a / b).toFixed(2)}x`);

/**
 * The requests per second the measured CPU allows on an otherwise idle
 * machine: the server's one thread runs every request's share in turn, and
 * server and readers together have every core. Load-independent, unlike req/s.
 */
function cpuBound(run: { serverCpuMs: number; readersCpuMs: number }, cores: number): number {
  return Math.min(1000 / run.serverCpuMs, (cores * 1000) / (run.serverCpuMs + run.readersCpuMs));
}

export function formatEndpoint(report: EndpointReport): string {
  const databases = [...new Set(report.runs.map((run) => run.database))];
  const costRows = report.files.map((f) => [
    f.file,
    ms(f.rawPdfjsMs),
    ms(f.engineMs),
    ratio(f.engineMs, f.rawPdfjsMs),
    ...databases.flatMap((d) => [ms(f.endpointMs[d]), ratio(f.endpointMs[d], f.engineMs)]),
  ]);
  const costs = formatTable(
    ["one-page invoice", "raw pdfjs ms", "engine ms", "engine/raw", ...databases.flatMap((d) => [`endpoint ms (${d}, 1 client)`, "endpoint/engine"])],
    costRows,
  );
  const limit = report.rawLimit;
  const runRows = report.runs.map((run) => [
    run.database,
    `${run.clients}${run.phase === "warm" ? "" : ` (${run.phase})`}`,
    String(run.requests),
    String(run.failures),
    ms(run.p50Ms),
    ms(run.p99Ms),
    `${(run.p99Ms / run.p50Ms).toFixed(1)}x`,
    run.requestsPerSecond.toFixed(1),
    `${((run.requestsPerSecond / limit) * 100).toFixed(0)}%`,
    ms(run.serverCpuMs),
    ms(run.readersCpuMs),
    ms(run.clientCpuMs),
    cpuBound(run, report.cores).toFixed(1),
  ]);
  const runs = formatTable(
    ["database", "clients", "requests", "failures", "p50 ms", "p99 ms", "p99/p50", "req/s", "of raw limit", "server CPU ms/req", "readers CPU ms/req", "client CPU ms/req", "CPU-bound req/s"],
    runRows,
  );
  const memoryRows = report.memory.map((m) => [
    m.database,
    m.serverMb.toFixed(0),
    m.readersMb.map((r) => r.toFixed(0)).join(" + ") || "-",
    (m.serverMb + m.readersMb.reduce((a, b) => a + b, 0)).toFixed(0),
  ]);
  const memory = formatTable(["database", "server MB", "idle readers MB", "together MB"], memoryRows);
  return [
    `One-page digital invoice, ${report.cores} cores (raw limit: ${limit.toFixed(1)} documents/s, embedded fonts, raw pdfjs warm in one process per core, measured)`,
    costs,
    "",
    "POST /v1/documents/analyze, embedded-font invoice (CPU from /proc: the server process, and its readers with what they start; the clients' own, on the same cores)",
    runs,
    "",
    "Resident memory at idle after the load",
    memory,
  ].join("\n");
}
