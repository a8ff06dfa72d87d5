// A menu entry with its icon on the left (the card and row menus of the list screens). The rest of its props go to
// MUI's MenuItem: the menu list hands its items focus and tab order through them.
import type { ReactNode } from 'react';
import { ListItemIcon, ListItemText, MenuItem, type MenuItemProps } from '@mui/material';

export interface IconMenuItemProps extends Omit<MenuItemProps, 'children'> {
  icon: ReactNode;
  text: ReactNode;
}

export function IconMenuItem({ icon, text, ...item }: IconMenuItemProps) {
  return (
    <MenuItem {...item}>
      <ListItemIcon>{icon}</ListItemIcon>
      <ListItemText>{text}</ListItemText>
    </MenuItem>
  );
}
