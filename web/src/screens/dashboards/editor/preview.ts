// What the component editor's preview shows for the form as it stands (issue 28): the card the form describes,
// evaluated by the gateway as if it were saved, or why there is nothing to show yet. The preview does not ask for
// what only the save needs (a key, a position): a card with no key yet is previewed under a stand-in key, and
// a missing or invalid size takes the type's own. An incomplete query (spec 02 section 4: a param that still has
// children, an empty multi-subparam selection) shows the spec's message instead of a card.
import { CARD_TYPES, COMPONENT_KEY_PATTERN, T, type CardSize, type ComponentInput } from '@sentra/contracts';
import { cardTypeOf, componentOf, type ComponentEditorState } from './componentEditor.js';

export type PreviewOf =
  | { kind: 'card'; component: ComponentInput }
  /** nothing to evaluate: no card type chosen, a query incomplete, a field the schema refuses */
  | { kind: 'message'; message: string; incomplete: boolean };

/** the key a card without a valid one yet is previewed under */
export const PREVIEW_KEY = 'pratinjau';

const whole = (s: string) => /^\d+$/.test(s.trim()) && Number(s) >= 1;

export function previewOf(state: ComponentEditorState): PreviewOf {
  const cat = cardTypeOf(state);
  if (!cat) return { kind: 'message', message: T.dashboards.editor.previewChooseType, incomplete: false };
  const { minW, minH, fixedW, fixedH }: CardSize = CARD_TYPES[cat].size;
  const key = COMPONENT_KEY_PATTERN.test(state.key) && state.key.length <= 30 ? state.key : PREVIEW_KEY;
  const w =
    fixedW !== undefined
      ? String(fixedW)
      : whole(state.position.w)
        ? String(Math.min(4, Math.max(minW, Number(state.position.w))))
        : String(minW);
  const h =
    fixedH !== undefined
      ? String(fixedH)
      : whole(state.position.h)
        ? String(Math.max(minH, Number(state.position.h)))
        : String(minH);
  const refresh = /^\d+$/.test(state.refresh.trim()) ? state.refresh : '0';
  const { component, errors } = componentOf({ ...state, key, refresh, position: { x: '0', y: '0', w, h } });
  if (component) return { kind: 'card', component };
  const modelError = Object.entries(errors).find(([field]) => field === 'model' || field.startsWith('model.'));
  if (modelError) return { kind: 'message', message: modelError[1], incomplete: true };
  return { kind: 'message', message: Object.values(errors)[0] ?? T.dashboards.component.incomplete, incomplete: false };
}
