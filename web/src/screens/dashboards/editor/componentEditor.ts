// The component editor without React (spec 02 section 2 "Add/Edit component (editor)", section 4 "Component category
// and type changes", "Saving and layout", section 5 "Component editor"): key, refresh, decimals, the category and type
// selectors with the 'Semua variabel akan di hapus!' confirmation and its resets, tags, position and size, local
// variables, the queries per card role, the view, and the component a confirmed save produces.
import {
  CARD_TYPES,
  Component,
  DECIMALS_DEFAULT,
  DEFAULT_UNIT,
  SINGLE_VALUE_SUBTYPES,
  T,
  cardTypeOfChoice,
  choiceOfCardType,
  gridHeight,
  hasControlMode,
  storedHeight,
  type CardSize,
  type CardTypeCode,
  type ComponentInput,
  type ControlMode,
  type EditorCategory,
  type EditorChoice,
  type QueryEntityInput,
  type UnitCode,
  type VariableValue,
} from '@sentra/contracts';
import { querySlots, type QueryRole } from './querySlots.js';

const t = T.dashboards;

export { querySlots, type QueryRole, type QuerySlot } from './querySlots.js';

type Model = Record<string, unknown>;
type View = Record<string, unknown>;
type Vars = Record<string, VariableValue>;

export interface Position {
  x: string;
  y: string;
  /** grid units as the editor shows them (stored heights are halved) */
  w: string;
  h: string;
}

/** A change of a category or type selector waiting for 'Semua variabel akan di hapus!'. */
export interface PendingChoice {
  choice: Partial<EditorChoice>;
  /** a category change also resets the type selections, position and size */
  resetsLayout: boolean;
}

export interface ComponentEditorState {
  mode: 'add' | 'edit';
  key: string;
  refresh: string;
  decimal: string;
  choice: Partial<EditorChoice>;
  tags: string[];
  position: Position;
  /** local variables */
  vars: Vars;
  model: Model;
  view: View;
  /** the first free row of the dashboard: a new card's starting position */
  freeRow: number;
  pending?: PendingChoice;
  /** messages by field after a refused save: key, refresh, decimal, category, position, size, model.<role>, … */
  errors: Record<string, string>;
  /** 'confirm': waiting for the replace/save confirmation; 'ready': `component` is to be stored */
  submit: 'idle' | 'confirm' | 'ready';
  component?: ComponentInput;
  /** keys of the dashboard's components (a save under one of them asks to replace it) */
  existingKeys: string[];
}

export type ComponentEditorEvent =
  | { type: 'changeKey'; key: string }
  | { type: 'changeRefresh'; refresh: string }
  | { type: 'changeDecimal'; decimal: string }
  | { type: 'chooseCategory'; category: EditorCategory }
  | { type: 'chooseSubtype'; subtype: string }
  | { type: 'chooseControlMode'; controlMode: ControlMode }
  | { type: 'chooseUnit'; unit: UnitCode }
  | { type: 'confirmChoice' }
  | { type: 'cancelChoice' }
  | { type: 'changeTags'; tags: string[] }
  | { type: 'changePosition'; position: Partial<Position> }
  | { type: 'setVariable'; key: string; value: VariableValue }
  | { type: 'removeVariable'; key: string }
  | { type: 'setQuery'; role: QueryRole; query: QueryEntityInput | undefined }
  | { type: 'setView'; view: View }
  | { type: 'save' }
  | { type: 'confirmSave' }
  | { type: 'cancelSave' }
  | { type: 'saved' };

/** The first row below every card of the dashboard (stored heights doubled back to grid units). */
export function firstFreeRow(components: Record<string, ComponentInput>): number {
  let row = 0;
  for (const c of Object.values(components)) {
    const cat = c.cat as CardTypeCode;
    row = Math.max(row, c.y + (CARD_TYPES[cat] ? gridHeight(cat, c.h) : c.h));
  }
  return row;
}

/** A card type's minimum (and fixed) size in grid units. */
const sizeOf = (cat: CardTypeCode): CardSize => CARD_TYPES[cat].size;

/** The size a card type starts with: its minimum (or fixed) size in grid units. */
function startSize(cat: CardTypeCode | undefined): Pick<Position, 'w' | 'h'> {
  if (!cat) return { w: '', h: '' };
  const { minW, minH, fixedW, fixedH } = sizeOf(cat);
  return { w: String(fixedW ?? minW), h: String(fixedH ?? minH) };
}

/** The choice a category starts with: Single Value's default unit (Custom Unit), Control's Manual mode. */
function startChoice(category: EditorCategory): Partial<EditorChoice> {
  if (category === 'Single Value') return { category, unit: DEFAULT_UNIT };
  if (hasControlMode(category)) return { category, controlMode: 'manual' };
  return { category };
}

export function newComponentEditor(options: { existing?: Record<string, ComponentInput> } = {}): ComponentEditorState {
  const existing = options.existing ?? {};
  const freeRow = firstFreeRow(existing);
  return {
    mode: 'add',
    key: '',
    refresh: '0',
    decimal: String(DECIMALS_DEFAULT),
    choice: {},
    tags: [],
    position: { x: '0', y: String(freeRow), w: '', h: '' },
    vars: {},
    model: {},
    view: {},
    freeRow,
    errors: {},
    submit: 'idle',
    existingKeys: Object.keys(existing),
  };
}

/**
 * The editor prefilled from a stored component ("Edit component (editor)"); undefined when its type is not reachable
 * with the editor's selectors (monitoring charts, payment lists, …: those are edited with the manual JSON form).
 */
export function componentEditorFrom(
  component: ComponentInput,
  existing: Record<string, ComponentInput> = {},
): ComponentEditorState | undefined {
  const cat = component.cat as CardTypeCode;
  const choice = CARD_TYPES[cat] ? choiceOfCardType(cat) : undefined;
  if (!choice) return undefined;
  const { decimal, type, ...view } = (component.view ?? {}) as View;
  const { tags, ...model } = (component.model ?? {}) as Model;
  const unit = choice.category === 'Single Value' ? (isUnit(type) ? type : DEFAULT_UNIT) : undefined;
  return {
    ...newComponentEditor({ existing }),
    mode: 'edit',
    key: component.key,
    refresh: String(component.config?.refresh ?? 0),
    decimal: String(typeof decimal === 'number' ? decimal : DECIMALS_DEFAULT),
    choice: unit ? { ...choice, unit } : choice,
    tags: Array.isArray(tags) ? tags.map(String) : [],
    position: {
      x: String(component.x),
      y: String(component.y),
      w: String(component.w),
      h: String(gridHeight(cat, component.h)),
    },
    vars: { ...((component.var ?? {}) as Vars) },
    model,
    // a stored view type that is not a unit (manual JSON extras) stays in the view
    view: unit || type === undefined ? view : { ...view, type },
  };
}

function isUnit(v: unknown): v is UnitCode {
  return SINGLE_VALUE_SUBTYPES.some((s) => s.unit === v);
}

/** The card type the selectors end in, or undefined while the choice is incomplete. */
export function cardTypeOf(state: Pick<ComponentEditorState, 'choice'>): CardTypeCode | undefined {
  return state.choice.category ? cardTypeOfChoice(state.choice as EditorChoice) : undefined;
}

/** Is there anything the change would delete? A first choice of a selector is not a change. */
function changes(state: ComponentEditorState, field: keyof EditorChoice, value: unknown): boolean {
  return state.choice[field] !== undefined && state.choice[field] !== value;
}

/** Apply a confirmed (or unconfirmable) selector change with the resets of section 4. */
function applyChoice(state: ComponentEditorState, pending: PendingChoice): ComponentEditorState {
  const cleared = { ...state, pending: undefined, vars: {}, model: {}, view: {}, errors: {}, submit: 'idle' as const };
  if (!pending.resetsLayout) {
    const choice = { ...state.choice, ...pending.choice };
    const next = { ...cleared, choice };
    return withStartSize(next, state);
  }
  // "Changing the category also resets the type selections, position, size, model and view." Tags live in the model.
  const choice = startChoice(pending.choice.category as EditorCategory);
  const position = { x: '0', y: String(state.freeRow), ...startSize(cardTypeOf({ choice })) };
  return { ...cleared, choice, tags: [], position };
}

/** A size not yet given (or one of another fixed size) becomes the chosen type's start size. */
function withStartSize(next: ComponentEditorState, before: ComponentEditorState): ComponentEditorState {
  const cat = cardTypeOf(next);
  if (!cat || cat === cardTypeOf(before)) return next;
  const { fixedW, fixedH } = sizeOf(cat);
  const blank = next.position.w === '' || next.position.h === '';
  if (!blank && fixedW === undefined && fixedH === undefined) return next;
  return { ...next, position: { ...next.position, ...startSize(cat) } };
}

/** A selector change: asks 'Semua variabel akan di hapus!' when it changes an earlier choice, else applies at once. */
function choose(state: ComponentEditorState, field: keyof EditorChoice, value: string): ComponentEditorState {
  if (state.choice[field] === value) return state;
  const resetsLayout = field === 'category';
  const pending: PendingChoice = { choice: { [field]: value }, resetsLayout };
  if (changes(state, field, value)) return { ...state, pending };
  if (resetsLayout) return applyChoice(state, pending);
  return withStartSize({ ...state, choice: { ...state.choice, [field]: value } }, state);
}

export function componentEditorReducer(state: ComponentEditorState, event: ComponentEditorEvent): ComponentEditorState {
  const edited = (patch: Partial<ComponentEditorState>): ComponentEditorState => ({
    ...state,
    ...patch,
    submit: 'idle',
  });
  switch (event.type) {
    case 'changeKey':
      // "The component key is read-only" when editing
      return state.mode === 'edit' ? state : edited({ key: event.key, errors: without(state.errors, 'key') });
    case 'changeRefresh':
      return edited({ refresh: event.refresh, errors: without(state.errors, 'refresh') });
    case 'changeDecimal':
      return edited({ decimal: event.decimal, errors: without(state.errors, 'decimal') });
    case 'chooseCategory':
      return choose(state, 'category', event.category);
    case 'chooseSubtype':
      return choose(state, 'subtype', event.subtype);
    case 'chooseControlMode':
      return choose(state, 'controlMode', event.controlMode);
    case 'chooseUnit':
      // the single-value unit is a view setting, not a type: it asks nothing and deletes nothing
      return edited({ choice: { ...state.choice, unit: event.unit } });
    case 'confirmChoice':
      return state.pending ? applyChoice(state, state.pending) : state;
    case 'cancelChoice':
      return { ...state, pending: undefined };
    case 'changeTags':
      return edited({ tags: event.tags.filter((tag) => tag.trim() !== '') });
    case 'changePosition':
      return edited({
        position: { ...state.position, ...event.position },
        errors: without(state.errors, 'position', 'size'),
      });
    case 'setVariable':
      return edited({ vars: { ...state.vars, [event.key]: event.value } });
    case 'removeVariable': {
      const { [event.key]: _removed, ...vars } = state.vars;
      return edited({ vars });
    }
    case 'setQuery': {
      const model = { ...state.model };
      if (event.role === 'command') {
        const base = (model.config ?? {}) as Model;
        const { device_id, sensor, config, param, subparam } = event.query ?? {};
        const target = event.query ? { device_id, sensor, config, param, subparam } : {};
        const rest = Object.fromEntries(Object.entries(base).filter(([k]) => !TARGET_FIELDS.includes(k)));
        const merged = dropUndefined({ ...rest, ...target });
        if (Object.keys(merged).length === 0) delete model.config;
        else model.config = merged;
      } else if (event.query) model[event.role] = event.query;
      else delete model[event.role];
      return edited({ model, errors: without(state.errors, `model.${event.role}`) });
    }
    case 'setView':
      return edited({ view: { ...event.view } });
    case 'save':
      return save(state);
    case 'confirmSave':
      return state.submit === 'confirm' ? { ...state, submit: 'ready' } : state;
    case 'cancelSave':
      return { ...state, submit: 'idle', component: undefined };
    case 'saved':
      return { ...state, submit: 'idle' };
  }
}

const TARGET_FIELDS = ['device_id', 'sensor', 'config', 'param', 'subparam'];

function dropUndefined(o: Model): Model {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

function without(errors: Record<string, string>, ...fields: string[]): Record<string, string> {
  const rest = { ...errors };
  for (const f of fields) delete rest[f];
  return rest;
}

/** The stored query of a role (the command target read back from `model.config`). */
export function queryOf(
  state: Pick<ComponentEditorState, 'model' | 'choice'>,
  role: QueryRole,
): QueryEntityInput | undefined {
  if (role !== 'command') return state.model[role] as QueryEntityInput | undefined;
  const config = state.model.config as Model | undefined;
  if (!config || typeof config.sensor !== 'string') return undefined;
  const cat = cardTypeOf(state);
  const slot = cat ? querySlots(cat).find((s) => s.role === 'command') : undefined;
  const target = Object.fromEntries(TARGET_FIELDS.filter((k) => config[k] !== undefined).map((k) => [k, config[k]]));
  return { queryType: slot?.fixedQueryType ?? 'device', ...target } as QueryEntityInput;
}

const whole = (s: string) => (/^\d+$/.test(s.trim()) ? Number(s.trim()) : undefined);

/** The component the form describes, and the messages by field when it cannot be stored. */
export function componentOf(state: ComponentEditorState): {
  component?: ComponentInput;
  errors: Record<string, string>;
} {
  const errors: Record<string, string> = {};
  const cat = cardTypeOf(state);
  if (!cat) errors.category = T.common.required;
  const refresh = state.refresh.trim() === '' ? undefined : Number(state.refresh);
  if (refresh === undefined) errors.refresh = t.form.refreshRequired;
  const decimal = state.decimal.trim() === '' ? DECIMALS_DEFAULT : Number(state.decimal);
  const [x, y, w, h] = (['x', 'y', 'w', 'h'] as const).map((f) => whole(state.position[f]));
  // "Saving needs a category, a position and a size."
  if (x === undefined || y === undefined) errors.position = T.common.required;
  if (w === undefined || h === undefined || w < 1 || h < 1) errors.size = T.common.required;
  if (cat) {
    for (const slot of querySlots(cat)) {
      if (slot.required && !queryOf(state, slot.role)) errors[`model.${slot.role}`] = slotMessage(slot.role);
    }
  }
  const model: Model = { ...state.model };
  if (state.tags.length > 0) model.tags = [...state.tags];
  const view: View = { ...state.view, decimal };
  if (cat === 'SINGLE_VALUE_CARD') view.type = state.choice.unit ?? DEFAULT_UNIT;
  const component: ComponentInput = {
    key: state.key,
    cat: cat ?? ('' as CardTypeCode),
    x: x ?? 0,
    y: y ?? 0,
    w: w ?? 0,
    h: cat && h !== undefined ? storedHeight(cat, h) : (h ?? 0),
    config: { refresh: refresh as number },
    ...(Object.keys(state.vars).length > 0 ? { var: state.vars } : {}),
    ...(Object.keys(model).length > 0 ? { model } : {}),
    view,
  };
  const parsed = Component.safeParse(component);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOfIssue(issue.path.map(String));
      errors[field] ??= issue.message;
    }
  }
  return Object.keys(errors).length > 0 ? { errors } : { component, errors };
}

/** Where a schema issue is shown: the form's own fields, the query role's row, else the model as a whole. */
function fieldOfIssue(path: string[]): string {
  const [head, second] = path;
  if (head === 'x' || head === 'y') return 'position';
  if (head === 'w' || head === 'h') return 'size';
  if (head === 'config') return 'refresh';
  if (head === 'view' && second === 'decimal') return 'decimal';
  if (head === 'model' && second === 'config') return 'model.command';
  if (head === 'model' && ['value', 'latitude', 'longitude', 'status'].includes(second ?? '')) return `model.${second}`;
  if (head === 'model') return 'model';
  if (head === 'var') return 'vars';
  if (head === 'view') return 'view';
  if (head === 'cat') return 'category';
  return head ?? 'model';
}

function slotMessage(role: QueryRole): string {
  if (role === 'latitude') return t.component.latitudeRequired;
  if (role === 'longitude') return t.component.longitudeRequired;
  return t.component.incomplete;
}

/** "Saving a component under an existing key asks confirmation to replace it"; an edited one asks to save the new config. */
function save(state: ComponentEditorState): ComponentEditorState {
  const { component, errors } = componentOf(state);
  if (!component) return { ...state, errors, submit: 'idle', component: undefined };
  const asks = state.mode === 'edit' || state.existingKeys.includes(state.key);
  return { ...state, errors: {}, component, submit: asks ? 'confirm' : 'ready' };
}

/** The confirmation a save waits for: replacing another component's key, or saving an edited one. */
export function saveQuestion(state: ComponentEditorState): { title?: string; message: string } | undefined {
  if (state.submit !== 'confirm') return undefined;
  if (state.mode === 'edit') return { message: t.confirm.saveComponent };
  return { title: t.editor.keyExistsTitle, message: t.editor.keyExistsQuestion };
}

/** The first message of a refused save, for the notification ('Masih ada data yang tidak lengkap!' for the model). */
export function firstError(state: ComponentEditorState): string | undefined {
  return Object.values(state.errors)[0];
}

/** The size rule shown under the size fields. */
export function sizeHelp(cat: CardTypeCode | undefined): string | undefined {
  if (!cat) return undefined;
  const { minW, minH, fixedW, fixedH } = sizeOf(cat);
  if (fixedW !== undefined && fixedH !== undefined) return t.editor.fixedSizeHelp(fixedW, fixedH);
  return t.editor.sizeHelp(fixedW ?? minW, fixedH ?? minH);
}

/** "No devices and sensors: 'Tidak ada data berdasarkan penanda!'": tags chosen, and the tree they select is empty. */
export function noDataByTags(
  tags: readonly string[],
  source: { devices: object; sensors: object },
): string | undefined {
  if (tags.length === 0) return undefined;
  return Object.keys(source.devices).length === 0 && Object.keys(source.sensors).length === 0
    ? t.component.noDataByTags
    : undefined;
}
