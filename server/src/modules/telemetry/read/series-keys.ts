// Series looked up by their key inside an application, as the card engine asks for them: one series by its full key,
// the subparam series of a param, and the ids of a device's series. Read side of telemetry: the series table is the
// telemetry store's (series.ts registers new ones); prepared once, since a card evaluation asks these per device.
import type Database from 'better-sqlite3';
import type { SeriesView } from './reads.js';

/** a series found through its application (the reads' SeriesView): only these are handed to the point reads */
export type SeriesRef = SeriesView;

const SERIES_COLS = 'id, device_id AS deviceId, sensor, configtype, param, subparam, datatype';

export function createSeriesKeys(sqlite: Database.Database) {
  const byKey = sqlite.prepare(
    `SELECT ${SERIES_COLS} FROM telemetry_series WHERE device_id = ? AND sensor = ? AND configtype = ? AND param = ? AND subparam = ? AND app_id = ?`,
  );
  const ofParam = sqlite.prepare(
    `SELECT ${SERIES_COLS} FROM telemetry_series WHERE device_id = ? AND sensor = ? AND configtype = ? AND param = ? AND app_id = ? ORDER BY subparam`,
  );
  const ofDevice = sqlite.prepare('SELECT id FROM telemetry_series WHERE app_id = ? AND device_id = ?').pluck();
  return {
    /** the series of this exact key in the application, undefined when it has none */
    byKey(
      appId: number,
      deviceId: number,
      sensor: string,
      configtype: string,
      param: string,
      subparam: string,
    ): SeriesRef | undefined {
      return byKey.get(deviceId, sensor, configtype, param, subparam, appId) as SeriesRef | undefined;
    },
    /** every subparam series of a param, by subparam */
    ofParam(appId: number, deviceId: number, sensor: string, configtype: string, param: string): SeriesRef[] {
      return ofParam.all(deviceId, sensor, configtype, param, appId) as SeriesRef[];
    },
    /** the ids of the device's series in the application */
    idsOfDevice(appId: number, deviceId: number): number[] {
      return ofDevice.all(appId, deviceId) as number[];
    },
  };
}

export type SeriesKeys = ReturnType<typeof createSeriesKeys>;
