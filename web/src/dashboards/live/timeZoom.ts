// A dashboard view's time zoom, for the charts inside it: dragging across a chart's time axis narrows the view's
// range to what was selected (an absolute range in the address, so the browser's back returns to the previous one).
// Absent (the editor's preview, the edit layout): charts do not zoom.
import { createContext, useContext } from 'react';

export type TimeZoom = (start: number, end: number) => void;

export const TimeZoomContext = createContext<TimeZoom | null>(null);

export const useTimeZoom = () => useContext(TimeZoomContext);
