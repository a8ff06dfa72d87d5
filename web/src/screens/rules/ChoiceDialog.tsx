// The list's "Tambah manual atau dengan editor?" / "Ubah manual atau dengan editor?" question (spec 03 section 2.9):
// two answers, Editor or Manual, and closing the dialog chooses neither (the confirm dialog's yes/no cannot say that).
import { Button, Dialog, DialogActions, DialogContent, DialogContentText } from '@mui/material';
import { T } from '@sentra/contracts';

export type RuleFormKind = 'editor' | 'manual';

export function ChoiceDialog({
  question,
  open,
  onChoose,
  onClose,
}: {
  question: string;
  open: boolean;
  onChoose(kind: RuleFormKind): void;
  onClose(): void;
}) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-label={question}>
      <DialogContent>
        <DialogContentText>{question}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{T.common.cancel}</Button>
        <Button onClick={() => onChoose('manual')} variant="outlined">
          {T.rules.manual}
        </Button>
        <Button onClick={() => onChoose('editor')} variant="contained" autoFocus>
          {T.rules.editor}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
