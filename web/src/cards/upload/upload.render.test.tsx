// Render tests of the upload card: what it asks and the rows it reads (the API is replaced by a recorder).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderCard, setUpRenderTests } from '../cards.test-kit.js';
import { noticeMessages as messages, resetApiRecorder } from '../api.test-kit.js';

vi.mock('../../api/client.js', async () => (await import('../api.test-kit.js')).recordedApiModule());

setUpRenderTests();
beforeEach(resetApiRecorder);

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
