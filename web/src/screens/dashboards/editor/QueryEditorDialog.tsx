// The card data-query dialog: the headless query editor drawn, its trees loaded for the card's tags (command targets
// only the writable config types), and Simpan enabled only when the query is complete ("submittable").
import { useEffect, useReducer, useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, LinearProgress } from '@mui/material';
import { T, type QueryEntityInput } from '@sentra/contracts';
import { initialQueryEditor, queryEditorFrom, queryEditorReducer } from './queryEditor.js';
import { canSubmit, queryData } from './queryEditorView.js';
import { noDataByTags, type QuerySlot } from './componentEditor.js';
import { QueryEditorFields } from './QueryEditorFields.js';
import { loadSource } from './editorCalls.js';

export interface QueryEditorDialogProps {
  title: string;
  slot: QuerySlot;
  initial?: QueryEntityInput;
  tags: readonly string[];
  onSave(query: QueryEntityInput): void;
  onClose(): void;
}

/** Mounted while open: each opening starts from the stored query. */
export function QueryEditorDialog({ title, slot, initial, tags, onSave, onClose }: QueryEditorDialogProps) {
  const [state, send] = useReducer(queryEditorReducer, undefined, () =>
    initial
      ? queryEditorFrom(initial, slot.kind, slot.fixedQueryType)
      : initialQueryEditor(slot.kind, slot.fixedQueryType),
  );
  const [loading, setLoading] = useState(true);
  const [emptyByTags, setEmptyByTags] = useState<string>();
  const tagKey = tags.join('\n');

  useEffect(() => {
    let live = true;
    void loadSource({ tags: tagKey ? tagKey.split('\n') : [], config: slot.role === 'command' }).then((source) => {
      if (!live) return;
      send({ type: 'sourceLoaded', source });
      setEmptyByTags(noDataByTags(tagKey ? tagKey.split('\n') : [], source));
      setLoading(false);
    });
    return () => {
      live = false;
    };
  }, [tagKey, slot.role]);

  const save = () => {
    const query = queryData(state);
    if (query) onSave(query);
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="query-dialog-title">
      <DialogTitle id="query-dialog-title">{title}</DialogTitle>
      {loading && <LinearProgress />}
      <DialogContent>
        {emptyByTags && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {emptyByTags}
          </Alert>
        )}
        <QueryEditorFields state={state} send={send} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{T.common.cancel}</Button>
        <Button variant="contained" onClick={save} disabled={!canSubmit(state)}>
          {T.common.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
