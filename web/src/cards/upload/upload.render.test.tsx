// Render tests of the upload card: what it asks and the rows it reads (the API is replaced by a recorder).
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { notices } from '../../ui/snackbar/notices.js';
import { renderCard, stubLayout } from '../cards.test-kit.js';
import { resetApiRecorder } from '../api.test-kit.js';

vi.mock('../../api/client.js', async () => (await import('../api.test-kit.js')).recordedApiModule());

beforeAll(() => stubLayout());
beforeEach(resetApiRecorder);
afterEach(cleanup);

const messages = () => notices.snapshot().map((n) => n.message);

describe('UPLOAD_CSV_CARD', () => {
  it("asks for one device first: 'Harus memilih satu perangkat yang akan dikonfigurasi'", async () => {
    renderCard('UPLOAD_CSV_CARD', { view: { devices: [3, 4] } });
    fireEvent.click(await screen.findByTestId('upload-send'));
    expect(messages()).toContain('Harus memilih satu perangkat yang akan dikonfigurasi');
  });

  it('reads sensor, config, param and value rows', async () => {
    const { parseConfigCsv } = await import('./csvRows.js');
    expect(parseConfigCsv('sensor,config,param,value\nrelay,setting,interval,30\nrelay,setting,mode,"auto"\n')).toEqual(
      [
        { sensor: 'relay', configtype: 'setting', param: 'interval', value: 30 },
        { sensor: 'relay', configtype: 'setting', param: 'mode', value: 'auto' },
      ],
    );
    expect(parseConfigCsv('a,b\n1,2')).toBeNull();
  });
});
