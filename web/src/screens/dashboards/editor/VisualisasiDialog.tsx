// The 'Visualisasi' dialog: the chosen card type's view fields (viewFields.ts) drawn by ViewFieldsForm, the title,
// unit and icon first, beside a preview of the card that follows every keystroke (the dialog used to cover the
// editor's preview); Simpan writes them into the component's view, Batal leaves it as it was.
import { useMemo, useState, type ReactNode } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { cardTypeLabel, T, type CardTypeCode } from '@sentra/contracts';
import { viewFieldErrors, viewFieldsOf, viewFormValues, viewFromForm, type ViewFieldSpec } from './viewFields.js';
import { ViewFieldsForm } from './ViewFieldsForm.js';

export interface VisualisasiDialogProps {
  cat: CardTypeCode;
  view: Record<string, unknown>;
  /** the card's tags: its devices field picks among the devices carrying them */
  deviceTags?: readonly string[];
  /** the series the card's value query names (the choices of a fuel chart's fill series) */
  series?: readonly string[];
  /** the card drawn with the view as the form has it now */
  preview?: (view: Record<string, unknown>) => ReactNode;
  onSave(view: Record<string, unknown>): void;
  onClose(): void;
}

/** What a reader sees first on the card: its title, unit and icon lead the form. */
const FIRST = ['title', 'unit', 'pict'];
export const fieldOrder = (specs: readonly ViewFieldSpec[]): ViewFieldSpec[] =>
  [...specs].sort((a, b) => rank(a) - rank(b));
const rank = (s: ViewFieldSpec) => (FIRST.includes(s.name) ? FIRST.indexOf(s.name) : FIRST.length);

/** Mounted while open: each opening starts from the component's view. */
export function VisualisasiDialog({ cat, view, deviceTags, series, preview, onSave, onClose }: VisualisasiDialogProps) {
  const specs = useMemo(() => fieldOrder(viewFieldsOf(cat)), [cat]);
  const [values, setValues] = useState(() => viewFormValues(specs, view));
  const errors = viewFieldErrors(specs, values);
  const invalid = Object.keys(errors).length > 0;
  const draft = useMemo(() => viewFromForm(specs, values, view), [specs, values, view]);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth={preview ? 'lg' : 'md'} aria-labelledby="visualisasi-title">
      <DialogTitle id="visualisasi-title">
        {T.dashboards.variables.visualization} · {cardTypeLabel(cat, T.dashboards.editor)}
      </DialogTitle>
      <DialogContent>
        <Box
          sx={{
            display: 'grid',
            gap: 3,
            alignItems: 'start',
            gridTemplateColumns: preview ? { xs: '1fr', md: 'minmax(0, 1fr) minmax(300px, 420px)' } : '1fr',
          }}
        >
          <ViewFieldsForm
            specs={specs}
            values={values}
            errors={errors}
            deviceTags={deviceTags}
            series={series}
            onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
          />
          {preview && (
            <Box
              component="section"
              aria-label={T.dashboards.view.livePreview}
              data-testid="visualisasi-preview"
              // beside the fields on a wide screen, staying in view while they scroll; above them on a phone
              sx={{ position: { md: 'sticky' }, top: { md: 0 }, order: { xs: -1, md: 0 }, pt: 1 }}
            >
              <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
                {T.dashboards.view.livePreview}
              </Typography>
              {preview(draft)}
            </Box>
          )}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{T.common.cancel}</Button>
        <Button variant="contained" disabled={invalid} onClick={() => onSave(draft)}>
          {T.common.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
