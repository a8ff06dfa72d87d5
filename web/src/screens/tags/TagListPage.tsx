// "Penanda" (spec 03 section 2.8): tag categories with ID (prefix), Nama, Tipe and their options ("Pilihan", with the
// add-option dialog), a search on name or prefix, "Penanda Baru", the empty states, paging 10 (5, 10, 25).
import { useCallback, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Box, Button, Chip, Stack, TableCell, TableRow } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import { T, TAG_PAGE_SIZES, TagType, type TagCategory } from '@sentra/contracts';
import { useAppArea } from '../../ui/useAppArea.js';
import { notices } from '../../ui/snackbar/notices.js';
import { SearchBox } from '../../ui/SearchBox.js';
import { ListHeading, PagedTable, usePagedRows, type Paging } from '../../ui/PagedTable.js';
import { listTagCategories } from './tagCalls.js';
import { TagOptionDialog } from './TagOptionDialog.js';

export function TagListPage() {
  const area = useAppArea();
  const [search, setSearch] = useState('');
  const [paging, setPaging] = useState<Paging>({ page: 0, size: 10 });
  const [optionFor, setOptionFor] = useState<TagCategory | null>(null);
  const fetchPage = useCallback(
    () => listTagCategories({ search: search || undefined, page: paging.page, size: paging.size }).then((r) => ({ rows: r.categories, total: r.total })),
    [search, paging],
  );
  const { rows, total, loading, load } = usePagedRows(fetchPage);

  const openOptions = (c: TagCategory) => {
    if (c.category !== TagType.SELECTION) notices.warning(T.tags.optionNotAllowed);
    else setOptionFor(c);
  };

  return (
    <Box sx={{ position: 'relative' }}>
      <ListHeading
        title={T.tags.title}
        subtitle={T.tags.subtitle}
        action={<Button component={RouterLink} to={area.to('_tag_add_')} variant="contained" startIcon={<AddIcon />}>{T.tags.newTag}</Button>}
      />
      <Box sx={{ mb: 2 }}>
        <SearchBox placeholder={T.tags.search} buttonLabel={T.tags.searchButton} onSearch={(s) => { setSearch(s); setPaging((p) => ({ ...p, page: 0 })); }} />
      </Box>
      <PagedTable
        label={T.tags.title}
        rowCount={rows?.length ?? null}
        loading={loading}
        empty={search ? { title: T.tags.notFound, hint: T.tags.notFoundHint } : { title: T.tags.empty, hint: T.tags.emptyHint }}
        pager={{ total, paging, sizes: TAG_PAGE_SIZES, onPaging: setPaging }}
        head={
          <>
            <TableCell>{T.tags.colId}</TableCell>
            <TableCell>{T.tags.colName}</TableCell>
            <TableCell>{T.tags.colType}</TableCell>
            <TableCell>{T.tags.colOptions}</TableCell>
          </>
        }
      >
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
      </PagedTable>
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
