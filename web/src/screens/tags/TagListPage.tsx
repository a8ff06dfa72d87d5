// "Penanda" (spec 03 section 2.8): tag categories with ID (prefix), Nama, Tipe and their options ("Pilihan", with the
// add-option dialog), a search on name or prefix, "Penanda Baru", the empty states, paging 10 (5, 10, 25).
import { useCallback, useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Box, Button, Chip, Paper, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TablePagination, TableRow, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import { T, TAG_PAGE_SIZES, TagType, type TagCategory } from '@sentra/contracts';
import { useAppArea } from '../../ui/useAppArea.js';
import { notices } from '../../ui/snackbar/notices.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { SearchBox } from '../../ui/SearchBox.js';
import { EmptyState } from '../../ui/EmptyState.js';
import { lastPage, paginationLabels } from '../../ui/pagination.js';
import { listTagCategories } from './tagCalls.js';
import { TagOptionDialog } from './TagOptionDialog.js';

export function TagListPage() {
  const area = useAppArea();
  const [search, setSearch] = useState('');
  const [paging, setPaging] = useState({ page: 0, size: 10 });
  const [rows, setRows] = useState<TagCategory[] | null>(null);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [optionFor, setOptionFor] = useState<TagCategory | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const r = await listTagCategories({ search: search || undefined, page: paging.page, size: paging.size });
      setRows(r.categories);
      setTotal(r.total);
    } catch {
      setRows((prev) => prev ?? []);
    } finally {
      setLoading(false);
    }
  }, [search, paging]);
  useEffect(() => {
    void load();
  }, [load]);

  const openOptions = (c: TagCategory) => {
    if (c.category !== TagType.SELECTION) notices.warning(T.tags.optionNotAllowed);
    else setOptionFor(c);
  };

  return (
    <Box sx={{ position: 'relative' }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, justifyContent: 'space-between', alignItems: { sm: 'flex-end' } }}>
        <Box>
          <Typography variant="h4" component="h2" sx={{ fontWeight: 700 }}>{T.tags.title}</Typography>
          <Typography color="text.secondary">{T.tags.subtitle}</Typography>
        </Box>
        <Button component={RouterLink} to={area.to('_tag_add_')} variant="contained" startIcon={<AddIcon />}>{T.tags.newTag}</Button>
      </Stack>
      <Box sx={{ mb: 2 }}>
        <SearchBox placeholder={T.tags.search} buttonLabel={T.tags.searchButton} onSearch={(s) => { setSearch(s); setPaging((p) => ({ ...p, page: 0 })); }} />
      </Box>
      <Paper variant="outlined" sx={{ position: 'relative', minHeight: 200 }}>
        {rows && rows.length === 0 && !loading ? (
          search ? <EmptyState title={T.tags.notFound} hint={T.tags.notFoundHint} /> : <EmptyState title={T.tags.empty} hint={T.tags.emptyHint} />
        ) : (
          <TableContainer>
            <Table size="small" aria-label={T.tags.title}>
              <TableHead>
                <TableRow>
                  <TableCell>{T.tags.colId}</TableCell>
                  <TableCell>{T.tags.colName}</TableCell>
                  <TableCell>{T.tags.colType}</TableCell>
                  <TableCell>{T.tags.colOptions}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows?.map((c) => (
                  <TableRow key={c.id} hover data-testid="tag-row">
                    <TableCell sx={{ fontFamily: 'monospace' }}>{c.prefix}</TableCell>
                    <TableCell>{c.name}</TableCell>
                    <TableCell>{c.category_text}</TableCell>
                    <TableCell>
                      <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
                        {c.definitions.map((d) => (
                          <Chip key={d.name_lc} size="small" label={d.name} />
                        ))}
                        <Button size="small" startIcon={<PlaylistAddIcon />} onClick={() => openOptions(c)} aria-label={T.tags.addOptionFor(c.name)}>{T.tags.options}</Button>
                      </Stack>
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
          rowsPerPageOptions={[...TAG_PAGE_SIZES]}
          onPageChange={(_, page) => setPaging((p) => ({ ...p, page }))}
          onRowsPerPageChange={(e) => setPaging({ page: 0, size: Number(e.target.value) })}
          {...paginationLabels}
        />
        <LoadingOverlay open={loading} />
      </Paper>
      <TagOptionDialog
        category={optionFor}
        onClose={() => setOptionFor(null)}
        onAdded={() => {
          setOptionFor(null);
          void load();
        }}
      />
    </Box>
  );
}
