// 'Konfirmasi / Ingin tambah manual atau dengan bantuan editor?' with the buttons Editor and Manual (spec 02 section 2).
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { T } from '@sentra/contracts';

const c = T.dashboards.confirm;
const l = T.dashboards.layout;

export function AddComponentDialog({
  open,
  onClose,
  onChoose,
}: {
  open: boolean;
  onClose(): void;
  onChoose(how: 'editor' | 'manual'): void;
}) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{c.addComponentTitle}</DialogTitle>
      <DialogContent>
        <DialogContentText>{c.addComponentQuestion}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{T.common.cancel}</Button>
        <Button onClick={() => onChoose('manual')} variant="outlined">
          {l.manual}
        </Button>
        <Button onClick={() => onChoose('editor')} variant="contained" autoFocus>
          {l.editor}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
