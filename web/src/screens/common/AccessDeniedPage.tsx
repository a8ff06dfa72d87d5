// "Akses ditolak": a page of the console the signed-in role is not granted (a truly unknown path stays the 404). The
// way back is the role's first granted page, the same one the area's index opens.
import { Box, Button, Typography } from '@mui/material';
import BlockIcon from '@mui/icons-material/Block';
import { Link } from 'react-router';
import { T } from '@sentra/contracts';

export function AccessDeniedPage({ home }: { home: string }) {
  return (
    <Box sx={{ textAlign: 'center', py: { xs: 6, sm: 10 }, px: 2 }} data-testid="access-denied">
      <BlockIcon color="error" sx={{ fontSize: { xs: 64, sm: 96 } }} />
      <Typography variant="h4" component="h2" gutterBottom sx={{ fontWeight: 700 }}>
        {T.shell.accessDeniedTitle}
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 520, mx: 'auto' }}>
        {T.shell.accessDeniedBody}
      </Typography>
      <Button component={Link} to={home} variant="contained" sx={{ mt: 3 }}>
        {T.shell.accessDeniedBack}
      </Button>
    </Box>
  );
}
