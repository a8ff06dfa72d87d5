// How tall the drawing of one reading is on a multi-reading card (strain gauges, cracks): the card's body shared out
// among its readings, less each one's text line, so one gauge on a tall card is drawn large instead of a 10 px bar in
// 300 px of white (issue 38), and five gauges still fit.
export const GAUGE_MIN_PX = 10;
export const GAUGE_MAX_PX = 40;
/** a reading's text line (label and value) and the gap below it */
const TEXT_PX = 34;

export function gaugeThickness(bodyHeight: number, readings: number, reserved = 0): number {
  const share = (bodyHeight - reserved) / Math.max(1, readings) - TEXT_PX;
  return Math.round(Math.min(GAUGE_MAX_PX, Math.max(GAUGE_MIN_PX, share)));
}
