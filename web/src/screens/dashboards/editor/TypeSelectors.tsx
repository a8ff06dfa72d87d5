// The component editor's type selectors: category, then the selector its category has (single-value unit, list type,
// chart type, control type and the Manual / By All/Tags toggle). Changes go to the headless editor, which asks
// 'Semua variabel akan di hapus!' when an earlier choice changes.
import { Box, MenuItem, TextField, ToggleButton, ToggleButtonGroup } from '@mui/material';
import {
  EDITOR_CATEGORIES,
  SINGLE_VALUE_SUBTYPES,
  editorSubtypes,
  hasControlMode,
  T,
  type ControlMode,
  type EditorCategory,
  type UnitCode,
} from '@sentra/contracts';
import type { ComponentEditorEvent, ComponentEditorState } from './componentEditor.js';
import { formGrid } from './formGrid.js';

const e = T.dashboards.editor;

/** Category, then the type selector its category has: unit, list type, chart type, control type and Manual/By All/Tags. */
export function TypeSelectors({
  state,
  send,
  error,
}: {
  state: ComponentEditorState;
  send(e: ComponentEditorEvent): void;
  error?: string;
}) {
  const { category, subtype, unit, controlMode } = state.choice;
  const subtypes = editorSubtypes(category);
  return (
    <Box sx={formGrid(3)}>
      <TextField
        select
        label={e.category}
        required
        size="small"
        value={category ?? ''}
        error={!!error}
        helperText={error ?? ' '}
        onChange={(ev) => send({ type: 'chooseCategory', category: ev.target.value as EditorCategory })}
      >
        {EDITOR_CATEGORIES.map((c) => (
          <MenuItem key={c} value={c}>
            {c}
          </MenuItem>
        ))}
      </TextField>
      {category === 'Single Value' && (
        <TextField
          select
          label={e.unit}
          size="small"
          value={unit ?? ''}
          helperText=" "
          onChange={(ev) => send({ type: 'chooseUnit', unit: ev.target.value as UnitCode })}
        >
          {SINGLE_VALUE_SUBTYPES.map((s) => (
            <MenuItem key={s.unit} value={s.unit}>
              {s.label}
            </MenuItem>
          ))}
        </TextField>
      )}
      {subtypes.length > 0 && (
        <TextField
          select
          label={e.subtype}
          required
          size="small"
          value={subtype ?? ''}
          helperText=" "
          onChange={(ev) => send({ type: 'chooseSubtype', subtype: ev.target.value })}
        >
          {subtypes.map((s) => (
            <MenuItem key={s} value={s}>
              {s}
            </MenuItem>
          ))}
        </TextField>
      )}
      {hasControlMode(category) && (
        <Box>
          <ToggleButtonGroup
            sx={{ '& .MuiToggleButton-root': { textTransform: 'none' } }}
            exclusive
            size="small"
            color="primary"
            value={controlMode ?? null}
            aria-label={e.controlMode}
            onChange={(_, mode: ControlMode | null) => mode && send({ type: 'chooseControlMode', controlMode: mode })}
          >
            <ToggleButton value="manual">{e.manual}</ToggleButton>
            <ToggleButton value="byTags">{e.byTags}</ToggleButton>
          </ToggleButtonGroup>
        </Box>
      )}
    </Box>
  );
}
