// LoRa network servers (spec 03 section 2.11): Alamat MAC, Nama, LoRA Server, Aksi (Edit → _lora_edit_/{id}; Hapus
// shows the "not available" notice), paging 10 (5, 10, 25), and "LoRA Server Baru" to the add form.
import { useCallback, useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Box, Button, IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Paper, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TablePagination, TableRow, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import { LORA_PAGE_SIZES, T, type LoraServer } from '@sentra/contracts';
import { useAppArea } from '../../ui/useAppArea.js';
import { notices } from '../../ui/snackbar/notices.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { EmptyState } from '../../ui/EmptyState.js';
import { lastPage, paginationLabels } from '../../ui/pagination.js';
import { listLoraServers } from './loraCalls.js';

export function LoraListPage() {
  const area = useAppArea();
  const navigate = useNavigate();
  const [paging, setPaging] = useState({ page: 0, size: 10 });
  const [rows, setRows] = useState<LoraServer[] | null>(null);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [menu, setMenu] = useState<{ anchor: HTMLElement; server: LoraServer } | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const r = await listLoraServers({ page: paging.page, size: paging.size });
      setRows(r.servers);
      setTotal(r.total);
    } catch {
      setRows((prev) => prev ?? []);
    } finally {
      setLoading(false);
    }
  }, [paging]);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, justifyContent: 'space-between', alignItems: { sm: 'flex-end' } }}>
        <Box>
          <Typography variant="h4" component="h2" sx={{ fontWeight: 700 }}>{T.lora.title}</Typography>
          <Typography color="text.secondary">{T.lora.subtitle}</Typography>
        </Box>
        <Button component={RouterLink} to={area.to('_lora_add_')} variant="contained" startIcon={<AddIcon />}>{T.lora.newServer}</Button>
      </Stack>
      <Paper variant="outlined" sx={{ position: 'relative', minHeight: 200 }}>
        {rows && rows.length === 0 && !loading ? (
          <EmptyState title={T.lora.empty} hint={T.lora.emptyHint} />
        ) : (
          <TableContainer>
            <Table size="small" aria-label={T.lora.title}>
              <TableHead>
                <TableRow>
                  <TableCell>{T.lora.mac}</TableCell>
                  <TableCell>{T.lora.name}</TableCell>
                  <TableCell>{T.lora.server}</TableCell>
                  <TableCell align="right">{T.lora.colActions}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows?.map((s) => (
                  <TableRow key={s.id} hover data-testid="lora-row">
                    <TableCell sx={{ fontFamily: 'monospace' }}>{s.mac}</TableCell>
                    <TableCell>{s.name}</TableCell>
                    <TableCell>{s.server}</TableCell>
                    <TableCell align="right">
                      <IconButton aria-label={T.lora.rowMenu(s.name)} onClick={(e) => setMenu({ anchor: e.currentTarget, server: s })}>
                        <MoreVertIcon />
                      </IconButton>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        <TablePagination
          component="div"
          count={total}
          page={Math.min(paging.page, lastPage(total, paging.size))}
          rowsPerPage={paging.size}
          rowsPerPageOptions={[...LORA_PAGE_SIZES]}
          onPageChange={(_, page) => setPaging((p) => ({ ...p, page }))}
          onRowsPerPageChange={(e) => setPaging({ page: 0, size: Number(e.target.value) })}
          {...paginationLabels}
        />
        <LoadingOverlay open={loading} />
      </Paper>
      <Menu anchorEl={menu?.anchor} open={menu !== null} onClose={() => setMenu(null)}>
        <MenuItem
          onClick={() => {
            if (menu) navigate(area.to('_lora_edit_/{id}', { id: menu.server.id }));
            setMenu(null);
          }}
        >
          <ListItemIcon><EditIcon fontSize="small" /></ListItemIcon>
          <ListItemText>{T.lora.edit}</ListItemText>
        </MenuItem>
        <MenuItem
          onClick={() => {
            setMenu(null);
            notices.info(T.lora.removeNotAvailable);
          }}
        >
          <ListItemIcon><DeleteIcon fontSize="small" color="error" /></ListItemIcon>
          <ListItemText>{T.lora.remove}</ListItemText>
        </MenuItem>
      </Menu>
    </Box>
  );
}
