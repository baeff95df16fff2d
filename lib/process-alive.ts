/**
 * Whether a process of this machine still runs: signal 0 checks without sending anything.
 * EPERM means it runs under another user. Used to sweep what dead processes left in /tmp.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
