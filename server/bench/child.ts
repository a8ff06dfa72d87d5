// Talking to a benchmark's child process (a device fleet, a crowd of viewers): one command, one named answer. Over IPC
// (a forked ChildProcess), or any channel that emits 'message' and sends (the C fleet's stdin and JSON lines).

export interface ChildChannel {
  on(event: 'message', listener: (m: { cmd: string }) => void): unknown;
  off(event: 'message', listener: (m: { cmd: string }) => void): unknown;
  send(msg: object): unknown;
}

/** Sends `msg` and resolves with the first message whose `cmd` is `answer`; rejects after `timeoutMs`. */
export function askChild<T>(child: ChildChannel, msg: unknown, answer: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const on = (m: { cmd: string }) => {
      if (m.cmd !== answer) return;
      clearTimeout(timer);
      child.off('message', on);
      resolve(m as T);
    };
    const timer = setTimeout(() => {
      child.off('message', on);
      reject(new Error(`child did not answer ${answer} in ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('message', on);
    child.send(msg as object);
  });
}
