// 'Daftar Variabel': global then local variables, 5 rows a page, a key copied with 'Variable key sudah di-copy ke
// clipboard', and the Aksi (delete) column when actions are allowed; deleting closes the list and asks 'Konfirmasi
// Hapus Variabel', a cancel reopens it (the headless variableList reducer decides all of it).
import {
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/Delete';
import { T, VARIABLE_PAGE_SIZE, type VariableValue } from '@sentra/contracts';
import { pageRows, variableRows, type VariableListEvent, type VariableListState } from './variableList.js';
import { copyText } from '../../../ui/clipboard.js';
import { notices } from '../../../ui/snackbar/notices.js';

const v = T.dashboards.variables;
const f = T.dashboards.variableForm;

export interface VariableListDialogProps {
  state: VariableListState;
  send(event: VariableListEvent): void;
}

/** A short, readable value: the type of a typed object, else its JSON. */
export function describeValue(value: VariableValue): string {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && '_varType' in value) {
    const { _varType, ...rest } = value as Record<string, unknown>;
    return `${String(_varType)} ${JSON.stringify(rest)}`;
  }
  return JSON.stringify(value);
}

export function VariableListDialog({ state, send }: VariableListDialogProps) {
  const rows = pageRows(state);
  const total = variableRows(state).length;
  const copy = async (key: string) => {
    if (await copyText(key)) {
      send({ type: 'keyCopied', key });
      notices.success(v.copied);
    } else notices.error(T.common.copyFailed);
  };
  return (
    <>
      <Dialog
        open={state.open}
        onClose={() => send({ type: 'close' })}
        fullWidth
        maxWidth="md"
        aria-labelledby="variable-list-title"
      >
        <DialogTitle id="variable-list-title">{v.listTitle}</DialogTitle>
        <DialogContent>
          {total === 0 ? (
            <Typography color="text.secondary">{f.empty}</Typography>
          ) : (
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>{f.key}</TableCell>
                  <TableCell>{f.scope}</TableCell>
                  <TableCell>{f.value}</TableCell>
                  {state.actions && <TableCell align="right">{v.action}</TableCell>}
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((row) => (
                  <TableRow key={`${row.scope}:${row.key}`}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      <Tooltip title={f.copy}>
                        <IconButton size="small" aria-label={`${f.copy} ${row.key}`} onClick={() => void copy(row.key)}>
                          <ContentCopyIcon fontSize="inherit" />
                        </IconButton>
                      </Tooltip>
                      <code>{row.key}</code>
                    </TableCell>
                    <TableCell>
                      <Chip size="small" variant="outlined" label={row.scope === 'global' ? f.global : f.local} />
                    </TableCell>
                    <TableCell
                      sx={{
                        maxWidth: 360,
                        overflow: 'hidden',
                        textOverflow: 'ellipsis',
                        whiteSpace: 'nowrap',
                        fontFamily: 'monospace',
                        fontSize: 12,
                      }}
                    >
                      {describeValue(row.value)}
                    </TableCell>
                    {state.actions && (
                      <TableCell align="right">
                        <IconButton
                          size="small"
                          color="error"
                          aria-label={`${f.remove} ${row.key}`}
                          onClick={() => send({ type: 'askDelete', scope: row.scope, key: row.key })}
                        >
                          <DeleteIcon fontSize="small" />
                        </IconButton>
                      </TableCell>
                    )}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          {total > 0 && (
            <TablePagination
              component="div"
              count={total}
              page={state.page}
              rowsPerPage={VARIABLE_PAGE_SIZE}
              rowsPerPageOptions={[VARIABLE_PAGE_SIZE]}
              labelRowsPerPage={T.table.rowsPerPage}
              labelDisplayedRows={({ from, to, count }) => T.table.displayedRows(from, to, count)}
              onPageChange={(_, page) => send({ type: 'changePage', page })}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => send({ type: 'close' })}>{T.common.back}</Button>
        </DialogActions>
      </Dialog>
      <Dialog
        open={state.confirmingDelete !== undefined}
        onClose={() => send({ type: 'cancelDelete' })}
        maxWidth="xs"
        fullWidth
      >
        <DialogTitle>{v.removeTitle}</DialogTitle>
        <DialogContent>
          <DialogContentText>{v.removeQuestion}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => send({ type: 'cancelDelete' })}>{T.common.cancel}</Button>
          <Button color="error" variant="contained" onClick={() => send({ type: 'confirmDelete' })}>
            {T.common.yes}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
