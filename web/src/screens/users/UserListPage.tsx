// User list (_user_list_, spec 01 section 2 "Users"): 'List of User' / 'Manage user', one 200 px card per account
// with username, full name and role name, 2 per row up to 996 px, 3 up to 1200 px, else 4. A card offers Kelola
// (then Info or Password) and Hapus; the list is reloaded after a delete.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Avatar, Box, Card, CardActionArea, CardContent, Chip, Menu, Typography } from '@mui/material';
import SettingsIcon from '@mui/icons-material/Settings';
import DeleteIcon from '@mui/icons-material/Delete';
import InfoIcon from '@mui/icons-material/Info';
import KeyIcon from '@mui/icons-material/Key';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import { contracts, T, type OutputOf } from '@sentra/contracts';
import { useConfirmedAction } from '../../api/confirmed.js';
import { useAppArea } from '../../ui/useAppArea.js';
import { fullName } from './names.js';
import { callOrThrow, useListCall } from '../../api/call.js';
import { IconMenuItem } from '../../ui/IconMenuItem.js';
import { CardListPage } from '../../ui/CardListPage.js';

type UserAccount = OutputOf<typeof contracts.users.list>['data'][number];

export const USER_CARD_HEIGHT = 200;

export function UserListPage() {
  const area = useAppArea();
  const navigate = useNavigate();
  const { busy, act: confirmed } = useConfirmedAction();
  const [menu, setMenu] = useState<{ anchor: HTMLElement; user: UserAccount; level: 'root' | 'manage' } | null>(null);

  const { items: users, load } = useListCall(contracts.users.list);

  const remove = (user: UserAccount) =>
    confirmed({
      ask: { message: T.users.deleteConfirm(user.username) },
      run: (failed) => callOrThrow(contracts.users.remove, { id: user.id }, failed),
      success: T.users.deleteSuccess,
      failed: T.users.deleteFailed,
      done: load,
    });

  const close = () => setMenu(null);
  const go = (key: string) => () => {
    if (menu) navigate(area.to(key, { id: menu.user.id }));
    close();
  };

  return (
    <CardListPage
      title={T.users.listTitle}
      subtitle={T.users.listSubtitle}
      add={{ to: area.to('_user_add_'), label: T.users.createButton }}
      emptyText={T.users.empty}
      items={users}
      busy={busy}
    >
      <Box
        data-testid="user-cards"
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
          '@media (min-width: 997px)': { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' },
          '@media (min-width: 1200px)': { gridTemplateColumns: 'repeat(4, minmax(0, 1fr))' },
        }}
      >
        {users?.map((u) => (
          <Card key={u.id} variant="outlined" data-testid="user-card" sx={{ height: USER_CARD_HEIGHT }}>
            <CardActionArea
              onClick={(e) => setMenu({ anchor: e.currentTarget, user: u, level: 'root' })}
              aria-label={T.users.cardMenu(u.username)}
              aria-haspopup="menu"
              sx={{ height: '100%' }}
            >
              <CardContent
                sx={{
                  height: '100%',
                  display: 'flex',
                  flexDirection: 'column',
                  alignItems: 'center',
                  justifyContent: 'center',
                  textAlign: 'center',
                  gap: 0.5,
                }}
              >
                <Avatar sx={{ bgcolor: 'primary.main', width: 56, height: 56, mb: 1 }}>
                  {u.first.charAt(0).toUpperCase()}
                </Avatar>
                <Typography variant="subtitle1" sx={{ fontWeight: 700, maxWidth: '100%' }} noWrap>
                  {u.username}
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ maxWidth: '100%' }} noWrap>
                  {fullName(u)}
                </Typography>
                <Chip
                  size="small"
                  label={u.role_name ?? T.users.noRoleName}
                  variant={u.role_name ? 'filled' : 'outlined'}
                />
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
      <Menu anchorEl={menu?.anchor} open={menu !== null} onClose={close}>
        {(menu?.level === 'manage'
          ? [
              {
                key: 'back',
                icon: <ChevronLeftIcon fontSize="small" />,
                text: T.users.manage,
                onClick: () => setMenu({ ...menu, level: 'root' }),
                dense: true,
              },
              { key: 'info', icon: <InfoIcon fontSize="small" />, text: T.users.info, onClick: go('_user_edit_/{id}') },
              {
                key: 'password',
                icon: <KeyIcon fontSize="small" />,
                text: T.users.password,
                onClick: go('@user/password/{id}'),
              },
            ]
          : [
              {
                key: 'manage',
                icon: <SettingsIcon fontSize="small" />,
                text: T.users.manage,
                onClick: () => menu && setMenu({ ...menu, level: 'manage' }),
              },
              {
                key: 'delete',
                icon: <DeleteIcon fontSize="small" color="error" />,
                text: T.users.delete,
                onClick: () => {
                  const user = menu?.user;
                  close();
                  if (user) void remove(user);
                },
              },
            ]
        ).map(({ key, ...entry }) => (
          <IconMenuItem key={key} {...entry} />
        ))}
      </Menu>
    </CardListPage>
  );
}
