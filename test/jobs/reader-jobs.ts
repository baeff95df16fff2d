/** Jobs for pool tests: which reader process ran them. */
export function readerPid(): number {
  return process.pid;
}
