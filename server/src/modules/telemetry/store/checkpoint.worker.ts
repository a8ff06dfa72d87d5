// The WAL checkpoint thread (started by writer-thread.ts): a connection of its own runs PASSIVE checkpoints (they
// neither wait for nor block the writer; a frame the writer is still adding is copied the next time) and reports each.
// The writer's connection and the event loop's turn their automatic checkpoints off, so a commit never copies the WAL.
//
// A checkpoint running beside a writer that commits every few ms never catches up with it, and SQLite starts the WAL
// over only when a write transaction begins with every frame copied: under steady ingest the WAL grew without end
// (4 GB in four minutes at 66,000 points/s). So once it holds `restartFrames`, this thread syncs what it copied (the
// slow part, off the writer) and raises `ctl`; the writer thread then finishes the checkpoint between two batches (the
// frames of the last few ms) and its next commit starts the WAL over. A request the writer does not take within a
// second (no batch came) is taken back.
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

export interface CheckpointThreadData {
  file: string;
  everyMs: number;
  /** [0]: 1 while the writer thread is asked to finish a checkpoint */
  ctl: Int32Array;
  restartFrames: number;
}

/** what the thread posts after each run: frames copied and the WAL's length, or why it failed */
export type CheckpointReport = { frames: number; log: number; asked: boolean } | { error: string };

const port = parentPort!;
const { file, everyMs, ctl, restartFrames } = workerData as CheckpointThreadData;
const db = new Database(file);
db.pragma('busy_timeout = 5000');

function sync(name: string): void {
  const fd = fs.openSync(name, 'r');
  try {
    fs.fdatasyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

let askedAt = 0;
let closing = false;

function run(): void {
  if (Atomics.load(ctl, 0) === 1) {
    if (Date.now() - askedAt < 1000) return;
    Atomics.compareExchange(ctl, 0, 1, 0);
  }
  let report: CheckpointReport;
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>;
    let asked = false;
    if (r!.log >= restartFrames && !closing) {
      // the database file synced, then what was committed meanwhile copied and synced in turn: the writer is left the
      // frames of the last few ms, and the fsyncs of its checkpoint have next to nothing to write
      sync(file);
      db.pragma('wal_checkpoint(PASSIVE)');
      sync(file);
      sync(`${file}-wal`);
      askedAt = Date.now();
      asked = Atomics.compareExchange(ctl, 0, 0, 1) === 0;
    }
    report = { frames: r!.checkpointed, log: r!.log, asked };
  } catch (err) {
    report = { error: String((err instanceof Error && err.message) || err) };
  }
  port.postMessage(report);
}

setInterval(run, everyMs);
port.on('message', (m) => {
  if (m !== 'close') return;
  closing = true;
  Atomics.store(ctl, 0, 0);
  run();
  db.close();
  process.exit(0);
});
