// Talking to a benchmark's child process (a device fleet, a crowd of viewers) over IPC: one command, one named answer.
import type { ChildProcess } from 'node:child_process';

/** Sends `msg` and resolves with the first message whose `cmd` is `answer`; rejects after `timeoutMs`. */
export function askChild<T>(child: ChildProcess, msg: unknown, answer: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child did not answer ${answer} in ${timeoutMs} ms`)), timeoutMs);
    const on = (m: { cmd: string }) => {
      if (m.cmd !== answer) return;
      clearTimeout(timer);
      child.off('message', on);
      resolve(m as T);
    };
    child.on('message', on);
    child.send(msg as object);
  });
}
