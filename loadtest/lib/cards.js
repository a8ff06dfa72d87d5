// The pure parts of the card scenarios' setup (plain JavaScript, tested by k6.test.ts): which devices have the series
// the cards read, and the dashboard of one card per query function and device.

/** The cards' series, `sensor/config/param` (SENTRA_SERIES; default the simulator meters' `pm/meter/power`). */
export function seriesOf(text) {
  const parts = String(text || 'pm/meter/power').split('/');
  if (parts.length !== 3 || parts.some((p) => p === ''))
    throw new Error(`SENTRA_SERIES: "${text}" is not sensor/config/param`);
  return { sensor: parts[0], config: parts[1], param: parts[2] };
}

/**
 * Ids of the devices whose selection tree (nav/device/devices: device → sensor → config → param) holds the series,
 * at most `max`, lowest id first: a card on a device without it answers null, and the run would measure that empty
 * path instead of a read.
 */
export function devicesWithSeries(tree, series, max) {
  return Object.keys(tree || {})
    .filter((id) => {
      const params = ((tree[id] || {})[series.sensor] || {})[series.config] || {};
      return Object.prototype.hasOwnProperty.call(params, series.param);
    })
    .map(Number)
    .sort((a, b) => a - b)
    .slice(0, max);
}

/** One card per function (FUNCTIONS of session.js) for each device (at most 10), as conf_dashboard v2. */
export function cardsDashboard(functions, deviceIds, series) {
  const cards = {};
  let y = 0;
  deviceIds.slice(0, 10).forEach((device, i) => {
    Object.keys(functions).forEach((name) => {
      const f = functions[name];
      const key = `${name.toLowerCase()}_${i}`;
      let value;
      if (f.queryType === 'tags') value = { query: f.fn, queryType: 'tags', tags: [] };
      else if (f.queryType === 'condition')
        value = { query: 'MATH', queryType: 'condition', condition: '{func_power} * 2' };
      else value = { query: f.fn || 'LATEST', queryType: f.queryType, device_id: device, ...series };
      cards[key] = { key, cat: f.cat, x: 0, y, w: f.w, h: f.h, model: { value } };
      y += 2;
    });
  });
  return {
    version: '2',
    config: { refresh: 0 },
    var: {
      func_power: { _varType: 'func', query: 'LATEST', queryType: 'device', device_id: deviceIds[0], ...series },
    },
    dashboard: cards,
  };
}
