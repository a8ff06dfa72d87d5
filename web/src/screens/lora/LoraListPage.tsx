// LoRa network servers (spec 03 section 2.11): Alamat MAC, Nama, LoRA Server, Aksi (Edit → _lora_edit_/{id}; Hapus
// shows the "not available" notice), paging 10 (5, 10, 25), and "LoRA Server Baru" to the add form.
import { useCallback, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Box, Button, IconButton, Menu, TableCell, TableRow } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import { LORA_PAGE_SIZES, T, type LoraServer } from '@sentra/contracts';
import { useAppArea } from '../../ui/useAppArea.js';
import { notices } from '../../ui/snackbar/notices.js';
import { ListHeading, PagedTable, usePagedRows, type Paging } from '../../ui/PagedTable.js';
import { listLoraServers } from './loraCalls.js';
import { IconMenuItem } from '../../ui/IconMenuItem.js';

export function LoraListPage() {
  const area = useAppArea();
  const navigate = useNavigate();
  const [paging, setPaging] = useState<Paging>({ page: 0, size: 10 });
  const [menu, setMenu] = useState<{ anchor: HTMLElement; server: LoraServer } | null>(null);
  const fetchPage = useCallback(
    () => listLoraServers({ page: paging.page, size: paging.size }).then((r) => ({ rows: r.servers, total: r.total })),
    [paging],
  );
  const { rows, total, loading } = usePagedRows(fetchPage);

  return (
    <Box>
      <ListHeading
        title={T.lora.title}
        subtitle={T.lora.subtitle}
        action={
          <Button component={RouterLink} to={area.to('_lora_add_')} variant="contained" startIcon={<AddIcon />}>
            {T.lora.newServer}
          </Button>
        }
      />
      <PagedTable
        label={T.lora.title}
        rowCount={rows?.length ?? null}
        loading={loading}
        empty={{ title: T.lora.empty, hint: T.lora.emptyHint }}
        pager={{ total, paging, sizes: LORA_PAGE_SIZES, onPaging: setPaging }}
        head={
          <>
            <TableCell>{T.lora.mac}</TableCell>
            <TableCell>{T.lora.name}</TableCell>
            <TableCell>{T.lora.server}</TableCell>
            <TableCell align="right">{T.lora.colActions}</TableCell>
          </>
        }
      >
        {rows?.map((s) => (
          <TableRow key={s.id} hover data-testid="lora-row">
            <TableCell sx={{ fontFamily: 'monospace' }}>{s.mac}</TableCell>
            <TableCell>{s.name}</TableCell>
            <TableCell>{s.server}</TableCell>
            <TableCell align="right">
              <IconButton
                aria-label={T.lora.rowMenu(s.name)}
                onClick={(e) => setMenu({ anchor: e.currentTarget, server: s })}
              >
                <MoreVertIcon />
              </IconButton>
            </TableCell>
          </TableRow>
        ))}
      </PagedTable>
      <Menu anchorEl={menu?.anchor} open={menu !== null} onClose={() => setMenu(null)}>
        <IconMenuItem
          onClick={() => {
            if (menu) navigate(area.to('_lora_edit_/{id}', { id: menu.server.id }));
            setMenu(null);
          }}
          icon={<EditIcon fontSize="small" />}
          text={T.lora.edit}
        />
        <IconMenuItem
          onClick={() => {
            setMenu(null);
            notices.info(T.lora.removeNotAvailable);
          }}
          icon={<DeleteIcon fontSize="small" color="error" />}
          text={T.lora.remove}
        />
      </Menu>
    </Box>
  );
}
