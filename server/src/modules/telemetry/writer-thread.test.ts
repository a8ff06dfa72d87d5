import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb, findUp } from '../../platform/db/sqlite.js';
import { createLogger } from '../../platform/log.js';
import * as schema from '../../schema.js';
import type { WriteResult } from './write-batch.js';
import { threadExecutor } from './writer-thread.js';
import { toBatch } from './writer.js';

const submit = (ex: ReturnType<typeof threadExecutor>, id: number) =>
  new Promise<WriteResult>((resolve, reject) => ex.submit(toBatch(id, [{ appId: 1, deviceId: 1, qos: 0, receivedAt: 0, states: [], points: [{ seriesId: 1, ts: id, num: id, text: null }] }], null).batch, (err, r) => (err ? reject(err) : resolve(r!))));

describe('threadExecutor', () => {
  it('fails a batch its thread cannot write, and starts a new thread for the next one', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-wt-')), 'later');
    const ex = threadExecutor(path.join(dir, 'sentra.db'), createLogger('silent'));
    try {
      await expect(submit(ex, 1)).rejects.toThrow(/directory does not exist|unable to open|exited/i);
      const handle = openDb({ dataDir: dir, schema, migrationsFolder: findUp('drizzle', import.meta.url) });
      const r = await submit(ex, 2);
      expect(r.id).toBe(2);
      expect(Array.from(r.duplicates)).toEqual([]);
      expect(handle.sqlite.prepare('SELECT ts FROM telemetry_points').pluck().all()).toEqual([2]);
      handle.close();
    } finally {
      await ex.close();
      fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  });
});
