// The wizard's access step: the application's navigation tree with a checkbox per item, and 'Include All Children'
// (each picked item stands for its whole subtree; switching it clears the selection). The whole row is the checkbox's
// label: a click on a dashboard's name ticks it, as a user expects (a name that did not left the choice unmade).
import { useMemo } from 'react';
import {
  Alert,
  Box,
  Checkbox,
  FormControlLabel,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Switch,
  Typography,
} from '@mui/material';
import { T, type NavEntry } from '@sentra/contracts';
import { checkState, flattenTree } from './navTree.js';
import type { RoleWizardEvent } from './roleWizard.machine.js';

export function RoleAccessStep(props: {
  tree: NavEntry[];
  selected: number[];
  descendant: boolean;
  disabled: boolean;
  send(e: RoleWizardEvent): void;
}) {
  const { tree, selected, descendant, disabled, send } = props;
  const items = useMemo(() => flattenTree(tree), [tree]);
  return (
    <Box>
      <FormControlLabel
        control={
          <Switch
            checked={descendant}
            onChange={(e) => send({ type: 'SET_DESCENDANT', value: e.target.checked })}
            disabled={disabled}
          />
        }
        label={T.roles.includeAllChildren}
      />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {descendant ? T.roles.includeAllChildrenHint : T.roles.accessHint}
      </Typography>
      {items.length === 0 && <Alert severity="info">{T.roles.noNavs}</Alert>}
      <List
        dense
        data-testid="role-access-tree"
        sx={{ border: 1, borderColor: 'divider', borderRadius: 1, maxHeight: 420, overflow: 'auto' }}
      >
        {items.map((n) => {
          const state = checkState(tree, selected, n.id, descendant);
          const labelId = `role-nav-${n.id}`;
          return (
            <ListItem key={n.id} disablePadding>
              <ListItemButton
                dense
                sx={{ pl: 1 + n.depth * 3 }}
                disabled={disabled || state === 'included'}
                onClick={() => send({ type: 'TOGGLE_NAV', id: n.id })}
                data-testid="role-access-item"
              >
                <ListItemIcon sx={{ minWidth: 40 }}>
                  <Checkbox
                    edge="start"
                    checked={state === 'checked' || state === 'included'}
                    indeterminate={state === 'partial'}
                    disabled={disabled || state === 'included'}
                    tabIndex={-1}
                    disableRipple
                    slotProps={{ input: { 'aria-labelledby': labelId } }}
                  />
                </ListItemIcon>
                <ListItemText id={labelId} primary={n.label} secondary={n.path} />
              </ListItemButton>
            </ListItem>
          );
        })}
      </List>
    </Box>
  );
}
