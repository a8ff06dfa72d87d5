// Every card type's view but the map's, for one lazy chunk: a dashboard opening fetches its views in one request
// instead of ~20 small chunks over the browser's six connections, three or four rounds while its first card frames
// arrive (issue #9). Definitions take their view from here through `lazyView` (common/lazyView.ts); the map's view
// stays a chunk of its own, with Leaflet. Nothing imports this module statically.
export { default as ChartView } from './chart/ChartView.js';
export { default as TextChartView } from './chart/TextChartView.js';
export { ButtonView, DateRangeView, DateView, NumberView, TextView, ToggleView } from './command/CommandViews.js';
export { default as CoordinateView } from './coordinate/CoordinateView.js';
export { default as CrackView } from './crack/CrackView.js';
export { default as DataValueView } from './data-value/DataValueView.js';
export { default as DownloadView } from './download/DownloadView.js';
export { default as DropdownView } from './dropdown/DropdownView.js';
export { default as EmbeddedView } from './embedded/EmbeddedView.js';
export { default as ImageView } from './image/ImageView.js';
export { AutoListView, ManualListView, PaymentListView, TransactionListView } from './list/ListView.js';
export { default as SingleValueView } from './single-value/SingleValueView.js';
export { default as StrainView } from './strain/StrainView.js';
export { default as ThreePhaseView } from './three-phase/ThreePhaseView.js';
export { default as TitleView } from './title/TitleView.js';
export { default as UploadView } from './upload/UploadView.js';
export { default as WebserviceView } from './webservice/WebserviceView.js';
