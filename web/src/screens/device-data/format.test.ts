import { describe, expect, it } from 'vitest';
import { downloadFileName, fileNameOf, formatTs } from './format.js';

describe('data screen formats (spec 03 section 9)', () => {
  it('prints MM/DD/YYYY HH:mm:ss, 24-hour', () => {
    expect(formatTs(new Date(2025, 0, 5, 14, 3, 9).getTime())).toBe('01/05/2025 14:03:09');
  });
  it('names a download label_YYYYMMDD_HHmmss_id_sensor_configtype_param.csv, label defaulting to Data_perangkat', () => {
    const now = new Date(2025, 10, 2, 8, 7, 6).getTime();
    expect(downloadFileName('Meteran A', 12, ['env', 'data', 'temp'], now)).toBe(
      'Meteran_A_20251102_080706_12_env_data_temp.csv',
    );
    expect(downloadFileName(null, 12, ['state', 'mode'], now)).toBe('Data_perangkat_20251102_080706_12_state_mode.csv');
  });
  it('reads the file name of a content-disposition header', () => {
    expect(fileNameOf(`attachment; filename="a.csv"; filename*=UTF-8''b%20c.csv`)).toBe('b c.csv');
    expect(fileNameOf('attachment; filename="a.csv"')).toBe('a.csv');
  });
});
