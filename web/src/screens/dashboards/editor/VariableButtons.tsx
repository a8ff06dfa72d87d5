// The 'List Variabel' and 'Tambah Variabel' buttons with their dialogs, for the component editor (local variables,
// the dashboard's global ones listed beside them) and the dashboard add/edit form (global variables, Filter offered).
import { useState } from 'react';
import { Button } from '@mui/material';
import ListIcon from '@mui/icons-material/List';
import AddIcon from '@mui/icons-material/Add';
import { T, type VariableValue } from '@sentra/contracts';
import { initialVariableDialog, variableDialogReducer, type VariableDialogEvent } from './variableDialog.js';
import {
  initialVariableList,
  variableListReducer,
  type VariableListEvent,
  type VariableScope,
} from './variableList.js';
import type { SelectionSource } from './selectionSource.js';
import { VariableListDialog } from './VariableListDialog.js';
import { VariableAddDialog } from './VariableAddDialog.js';

type VariableSet = Record<string, VariableValue>;

export interface VariableButtonsProps {
  /** the set 'Tambah Variabel' adds to: local (component) or global (dashboard; Filter offered) */
  scope: VariableScope;
  global: VariableSet;
  local?: VariableSet;
  /** "The list shows the Aksi (delete) column only when actions are allowed (default yes)." */
  actions?: boolean;
  /** the device tree and tags for device, function and tag variables, fetched when the add dialog opens */
  loadSource(): Promise<SelectionSource>;
  onSave(key: string, value: VariableValue): void;
  onRemove(scope: VariableScope, key: string): void;
  disabled?: boolean;
}

export function VariableButtons({
  scope,
  global,
  local = {},
  actions,
  loadSource,
  onSave,
  onRemove,
  disabled,
}: VariableButtonsProps) {
  const [list, setList] = useState(initialVariableList);
  const [add, setAdd] = useState(initialVariableDialog);

  const sendList = (event: VariableListEvent) => {
    if (event.type === 'confirmDelete' && list.confirmingDelete)
      onRemove(list.confirmingDelete.scope, list.confirmingDelete.key);
    setList((s) => variableListReducer(s, event));
  };
  const sendAdd = (event: VariableDialogEvent) => {
    const next = variableDialogReducer(add, event);
    setAdd(next);
    // the dialog closes on save and hands the variable over once
    if (next.saved && next.saved !== add.saved) onSave(next.saved.key, next.saved.value);
  };
  const openAdd = () => {
    const existingKeys = Object.keys(scope === 'global' ? global : local);
    setAdd((s) => variableDialogReducer(s, { type: 'open', scope, existingKeys }));
    void loadSource().then((source) => setAdd((s) => (s.open ? { ...s, source, func: { ...s.func, source } } : s)));
  };

  return (
    <>
      <Button
        variant="outlined"
        startIcon={<ListIcon />}
        disabled={disabled}
        onClick={() => sendList({ type: 'open', variables: { global, local }, actions })}
      >
        {T.dashboards.variables.listButton}
      </Button>
      <Button variant="outlined" startIcon={<AddIcon />} disabled={disabled} onClick={openAdd}>
        {T.dashboards.variables.addButton}
      </Button>
      <VariableListDialog state={list} send={sendList} />
      <VariableAddDialog state={add} send={sendAdd} />
    </>
  );
}
