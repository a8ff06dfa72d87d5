// The tenant's application list (/admin/apps, spec 01 section 2): one card per application with its name and
// description, 4 per row above 996 px wide, else 2; a card opens the application by its domain.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Avatar, Box, Card, CardActionArea, CardContent, Stack, Typography } from '@mui/material';
import { contracts, T, type OutputOf } from '@sentra/contracts';
import { callAndNotify, useLoad } from '../../api/call.js';
import { CardListPage } from '../../ui/CardListPage.js';

type AppSummary = OutputOf<typeof contracts.apps.list>['data'][number];

export function AppListPage() {
  const navigate = useNavigate();
  const [apps, setApps] = useState<AppSummary[] | null>(null);
  useLoad(
    () => callAndNotify(contracts.apps.list),
    (o) => setApps(o.ok ? o.value.data : []),
    [],
  );

  return (
    <CardListPage
      title={T.application.listTitle}
      subtitle={T.application.listSubtitle}
      add={{ to: '/admin/apps/add', label: T.appForm.add }}
      emptyText={T.appForm.empty}
      items={apps}
    >
      <Box
        data-testid="app-cards"
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
          '@media (min-width: 997px)': { gridTemplateColumns: 'repeat(4, minmax(0, 1fr))' },
        }}
      >
        {apps?.map((a) => (
          <Card key={a.id} variant="outlined" data-testid="app-card">
            <CardActionArea onClick={() => navigate(`/admin/${a.domain}`)} sx={{ height: '100%' }}>
              <CardContent>
                <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1.5 }}>
                  <Avatar sx={{ bgcolor: 'primary.main' }}>{a.name.charAt(0).toUpperCase()}</Avatar>
                  <Box sx={{ minWidth: 0 }}>
                    <Typography variant="subtitle1" sx={{ fontWeight: 700 }} noWrap>
                      {a.name}
                    </Typography>
                    <Typography variant="caption" color="text.secondary" noWrap component="p">
                      {a.domain}
                    </Typography>
                  </Box>
                </Stack>
                <Typography
                  variant="body2"
                  color="text.secondary"
                  sx={{
                    display: '-webkit-box',
                    WebkitLineClamp: 3,
                    WebkitBoxOrient: 'vertical',
                    overflow: 'hidden',
                    minHeight: '4.3em',
                  }}
                >
                  {a.description || T.appForm.noDescription}
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
    </CardListPage>
  );
}
