// Leaflet 1.9's canvas renderer can still run a redraw frame after it left a removed map: the frame then finds no
// drawing context and throws (`Cannot read properties of undefined (reading 'clearRect')`, Leaflet issues 6030 and
// 9542, fixed upstream only in 2.0). It happens when a dashboard with a large fleet on its map is left while a push
// restyles markers. A redraw without a context is skipped, and the stale frame handle is dropped so the renderer
// redraws again if it is ever added back.
import L from 'leaflet';

interface CanvasInternals {
  _ctx?: CanvasRenderingContext2D;
  _redrawRequest: number | null;
  _redraw(): void;
}

const proto = L.Canvas.prototype as unknown as CanvasInternals & { __sentraTeardownSafe?: boolean };
if (!proto.__sentraTeardownSafe) {
  const redraw = proto._redraw;
  proto._redraw = function (this: CanvasInternals) {
    if (!this._ctx) {
      this._redrawRequest = null;
      return;
    }
    redraw.call(this);
  };
  proto.__sentraTeardownSafe = true;
}
