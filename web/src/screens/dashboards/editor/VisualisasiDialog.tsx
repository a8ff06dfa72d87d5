// The 'Visualisasi' dialog: the chosen card type's view fields (viewFields.ts) drawn by ViewFieldsForm; Simpan writes
// them into the component's view, Batal leaves it as it was.
import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { cardTypeLabel, T, type CardTypeCode } from '@sentra/contracts';
import { viewFieldErrors, viewFieldsOf, viewFormValues, viewFromForm } from './viewFields.js';
import { ViewFieldsForm } from './ViewFieldsForm.js';

export interface VisualisasiDialogProps {
  cat: CardTypeCode;
  view: Record<string, unknown>;
  /** the card's tags: its devices field picks among the devices carrying them */
  deviceTags?: readonly string[];
  /** the series the card's value query names (the choices of a fuel chart's fill series) */
  series?: readonly string[];
  onSave(view: Record<string, unknown>): void;
  onClose(): void;
}

/** Mounted while open: each opening starts from the component's view. */
export function VisualisasiDialog({ cat, view, deviceTags, series, onSave, onClose }: VisualisasiDialogProps) {
  const specs = viewFieldsOf(cat);
  const [values, setValues] = useState(() => viewFormValues(specs, view));
  const errors = viewFieldErrors(specs, values);
  const invalid = Object.keys(errors).length > 0;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="visualisasi-title">
      <DialogTitle id="visualisasi-title">
        {T.dashboards.variables.visualization} · {cardTypeLabel(cat, T.dashboards.editor)}
      </DialogTitle>
      <DialogContent>
        <ViewFieldsForm
          specs={specs}
          values={values}
          errors={errors}
          deviceTags={deviceTags}
          series={series}
          onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{T.common.cancel}</Button>
        <Button variant="contained" disabled={invalid} onClick={() => onSave(viewFromForm(specs, values, view))}>
          {T.common.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
