/** Load for the endpoint benchmark: clients posting one file in a loop, and the resident memory of the server and its readers. */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { readRss } from "@/test/support/server-process";
import type { Target } from "./endpoint-target";

const MB = 2 ** 20;
/** How long the server is left alone before its idle memory is read. */
const SETTLE_MS = 3_000;

export interface ClientsRun {
  clients: number;
  requests: number;
  /** Responses other than 200. */
  failures: number;
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  /**
   * CPU per request of the server process itself and of its readers (their
   * children included, those that ended during the run too), from /proc: unlike
   * the latencies, load from other processes on the machine barely moves them.
   */
  serverCpuMs: number;
  readersCpuMs: number;
  /** This process's (the clients'): it shares the cores it measures. */
  clientCpuMs: number;
}

export interface IdleMemory {
  serverMb: number;
  readersMb: number[];
}

export function percentile(sorted: number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? NaN;
}

/** Connections kept open between requests, as a real client keeps them. */
const agent = new Agent({ keepAlive: true });

/** Each file's multipart body, built once: the clients share the cores they measure, so they do little more per request than write and read a socket. */
const bodies = new WeakMap<Uint8Array, { body: Buffer; contentType: string }>();

function multipartOf(pdf: Uint8Array): { body: Buffer; contentType: string } {
  let built = bodies.get(pdf);
  if (!built) {
    const boundary = `----shipshape-bench-${randomBytes(8).toString("hex")}`;
    const head = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="invoice.pdf"\r\ncontent-type: application/pdf\r\n\r\n`;
    built = { body: Buffer.concat([Buffer.from(head), pdf, Buffer.from(`\r\n--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
    bodies.set(pdf, built);
  }
  return built;
}

/** One analyze request with the target's first key, or `options.key`; `respondAsync` asks for a 202. The answer is read whole. */
export function post(target: Target, pdf: Uint8Array, options: { key?: string; respondAsync?: boolean } = {}): Promise<{ ok: boolean; status: number; ms: number }> {
  const started = performance.now();
  const { body, contentType } = multipartOf(pdf);
  const headers = {
    "content-type": contentType,
    "content-length": String(body.length),
    "x-api-key": options.key ?? target.key,
    ...(options.respondAsync ? { prefer: "respond-async" } : {}),
  };
  return new Promise((resolve, reject) => {
    const sent = request(`${target.server.origin}/v1/documents/analyze`, { method: "POST", agent, headers }, (response) => {
      const status = response.statusCode ?? 0;
      response.on("error", reject);
      response.on("end", () => resolve({ ok: status === (options.respondAsync ? 202 : 200), status, ms: performance.now() - started }));
      response.resume();
    });
    sent.on("error", reject);
    sent.end(body);
  });
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

interface ProcessCpu {
  /** The process's own user and system time, ms. */
  ownMs: number;
  /** Its ended children's, as the kernel adds them once they are waited for, ms. */
  endedChildrenMs: number;
}

function processCpu(pid: number): ProcessCpu {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ").map(Number);
    // Fields 14-17 of proc(5) (utime, stime, cutime, cstime), counted from field 3 here.
    const ms = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
    return { ownMs: ms(fields[11]! + fields[12]!), endedChildrenMs: ms(fields[13]! + fields[14]!) };
  } catch {
    return { ownMs: 0, endedChildrenMs: 0 };
  }
}

/** CPU ms so far of the server and of everything below it (readers, their OCR, ended ones included). */
function treeCpu(serverPid: number): { serverMs: number; readersMs: number } {
  const server = processCpu(serverPid);
  let readersMs = server.endedChildrenMs;
  const walk = (pid: number) => {
    for (const child of childrenOf(pid)) {
      const cpu = processCpu(child);
      readersMs += cpu.ownMs + cpu.endedChildrenMs;
      walk(child);
    }
  };
  walk(serverPid);
  return { serverMs: server.ownMs, readersMs };
}

/** `clients` clients send `requests` requests between them, each waiting for its answer before the next. */
export async function runClients(target: Target, pdf: Uint8Array, clients: number, requests: number): Promise<ClientsRun> {
  const cpuBefore = treeCpu(target.server.pid);
  const clientBefore = process.cpuUsage();
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  const client = async () => {
    while (next < requests) {
      next += 1;
      const { ok, ms } = await post(target, pdf);
      latencies.push(ms);
      if (!ok) failures += 1;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = treeCpu(target.server.pid);
  const clientCpu = process.cpuUsage(clientBefore);
  latencies.sort((a, b) => a - b);
  return {
    clients,
    requests,
    failures,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    requestsPerSecond: requests / seconds,
    serverCpuMs: (cpuAfter.serverMs - cpuBefore.serverMs) / requests,
    readersCpuMs: (cpuAfter.readersMs - cpuBefore.readersMs) / requests,
    clientCpuMs: (clientCpu.user + clientCpu.system) / 1000 / requests,
  };
}

/** Processes whose parent is `pid` (the server's readers). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) children.push(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return children;
}

/** Resident memory of the server and of each of its readers, after a few idle seconds. */
export async function idleMemory(target: Target): Promise<IdleMemory> {
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const serverMb = (await readRss(target.server.pid)).rss / MB;
  const readersMb: number[] = [];
  for (const pid of childrenOf(target.server.pid)) readersMb.push((await readRss(pid)).rss / MB);
  return { serverMb, readersMb };
}
