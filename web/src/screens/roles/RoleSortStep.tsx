// The wizard's order step: the picked navigation items in the order a user's menu shows them, moved up or down.
import { IconButton, List, ListItem, ListItemText, Stack, Tooltip, Typography } from '@mui/material';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import { T, type NavEntry } from '@sentra/contracts';
import { labelsOf } from './navTree.js';
import type { RoleWizardEvent } from './roleWizard.machine.js';

export function RoleSortStep({
  tree,
  selected,
  disabled,
  send,
}: {
  tree: NavEntry[];
  selected: number[];
  disabled: boolean;
  send(e: RoleWizardEvent): void;
}) {
  const items = labelsOf(tree, selected);
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {T.roles.sortHint}
      </Typography>
      <List data-testid="role-sort-list" sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
        {items.map((n, i) => (
          <ListItem
            key={n.id}
            divider={i < items.length - 1}
            secondaryAction={
              <Stack direction="row">
                <Tooltip title={T.roles.moveUp(n.label)}>
                  <span>
                    <IconButton
                      aria-label={T.roles.moveUp(n.label)}
                      disabled={disabled || i === 0}
                      onClick={() => send({ type: 'MOVE', from: i, to: i - 1 })}
                    >
                      <ArrowUpwardIcon />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title={T.roles.moveDown(n.label)}>
                  <span>
                    <IconButton
                      aria-label={T.roles.moveDown(n.label)}
                      disabled={disabled || i === items.length - 1}
                      onClick={() => send({ type: 'MOVE', from: i, to: i + 1 })}
                    >
                      <ArrowDownwardIcon />
                    </IconButton>
                  </span>
                </Tooltip>
              </Stack>
            }
          >
            <ListItemText primary={`${i + 1}. ${n.label}`} />
          </ListItem>
        ))}
      </List>
    </>
  );
}
