/**
 * How much an accepted upload costs the server in memory: a server process
 * (test/support/serve.ts, the real route over Node http) on embedded PGlite
 * on disk, as `npm start` runs it, receives a file of --mb megabytes,
 * --rounds times, with `Prefer: respond-async` and no in-process worker (the
 * job only waits: what is measured is the intake and its storage, not the
 * reading). Each round resets the server's peak RSS (VmHWM), streams the
 * upload with chunked transfer encoding, and reports the peak's growth over
 * the resident size before it, and the CPU time the server spent on it
 * (/proc/<pid>/stat; on PGlite that includes the database's work, which runs
 * on the server's thread). With --database-url, the server uses that
 * PostgreSQL instead (migrated to this tree's schema).
 *
 * With --files N (at most 19), each round is a compare instead: N files sharing the --mb
 * megabytes, then a short text file, which the route refuses (415) once the
 * whole body is received and checked (the jobs would wait for readers that
 * are not running): what is measured is the intake of all N files.
 * --port chooses the server's port (default: any free one).
 *
 *   npx tsx bench/upload-memory.ts [--mb 20] [--rounds 3] [--files N] [--port P] [--database-url postgres://…]
 */
import { request as httpRequest } from "node:http";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { closeDb, openDb } from "@/db/client";
import { createTestOrganization } from "@/test/support/api-fixtures";
import { readRss, resetPeakRss, startServerProcess } from "@/test/support/server-process";

const MB = 2 ** 20;
const PIECE = 64 * 1024;
const BOUNDARY = "----shipshape-upload-memory";

const { values } = parseArgs({
  options: {
    mb: { type: "string", default: "20" },
    rounds: { type: "string", default: "3" },
    files: { type: "string" },
    port: { type: "string", default: "0" },
    "database-url": { type: "string" },
  },
});
const databaseUrl = values["database-url"];
const fileBytes = Number(values.mb) * MB;
const rounds = Number(values.rounds);
const compareFiles = values.files === undefined ? undefined : Number(values.files);

/** User and system CPU time of a process so far, in milliseconds (clock ticks of 10 ms). */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]!.split(" ");
  // After the command: state is field 3, utime and stime are fields 14 and 15.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A file part of `size` bytes: a PDF header, then filler. */
interface FilePart {
  name: string;
  size: number;
}

/** Streams a multipart body of file parts (and a trailing text file for a compare) to `route`; resolves with the status. */
function upload(origin: string, key: string, route: string, files: FilePart[], trailer?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${route}`, {
      method: "POST",
      headers: { "x-api-key": key, prefer: "respond-async", "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    const piece = Buffer.alloc(PIECE, 0x20);
    const parts = [...files];
    const next = () => {
      const file = parts.shift();
      if (!file) {
        if (trailer !== undefined) req.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\n\r\n${trailer}\r\n`);
        return void req.end(`--${BOUNDARY}--\r\n`);
      }
      req.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n\r\n%PDF-1.7\n`);
      let sent = 9;
      const write = () => {
        while (sent < file.size) {
          const part = piece.subarray(0, Math.min(PIECE, file.size - sent));
          sent += part.length;
          if (!req.write(part)) return void req.once("drain", write);
        }
        req.write("\r\n");
        next();
      };
      write();
    };
    next();
  });
}

/** One measured request: an analyze upload of the whole size, or a compare of `compareFiles` files sharing it. */
function measuredUpload(origin: string, key: string): Promise<number> {
  if (compareFiles === undefined) return upload(origin, key, "/v1/documents/analyze", [{ name: "big.pdf", size: fileBytes }]);
  const each = Math.floor(fileBytes / compareFiles);
  const files = Array.from({ length: compareFiles }, (_, i) => ({ name: `file-${i + 1}.pdf`, size: each }));
  return upload(origin, key, "/v1/documents/compare", files, "not a document");
}

const dataDir = await mkdtemp(path.join(tmpdir(), "shipshape-upload-memory-"));
const db = await openDb(databaseUrl ? { url: databaseUrl } : { dataDir });
const { key } = (await createTestOrganization(db)).production;
await closeDb(db);
const server = await startServerProcess({
  DATABASE_URL: databaseUrl,
  PGLITE_DIR: databaseUrl ? undefined : dataDir,
  ANALYSIS_IN_PROCESS_WORKER: "false",
  MAX_UPLOAD_MB: String(Math.ceil(fileBytes / MB) + 1),
  PORT: values.port,
});
try {
  // The first request loads the route and the database: not what is measured.
  console.log(`warm-up: ${await upload(server.origin, key, "/v1/documents/analyze", [{ name: "warm-up.pdf", size: MB }])}`);
  for (let round = 1; round <= rounds; round++) {
    const before = await readRss(server.pid);
    await resetPeakRss(server.pid);
    const cpuBefore = await cpuMs(server.pid);
    const status = await measuredUpload(server.origin, key);
    const cpu = (await cpuMs(server.pid)) - cpuBefore;
    const after = await readRss(server.pid);
    console.log(
      `round ${round}: ${status}, ${values.mb} MB ${compareFiles === undefined ? "upload" : `compare of ${compareFiles} files`}, server RSS before ${(before.rss / MB).toFixed(0)} MB, peak grew ${((after.peak - before.rss) / MB).toFixed(1)} MB, server CPU ${cpu} ms`,
    );
  }
} finally {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
