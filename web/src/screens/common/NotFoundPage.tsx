// 'Page Not Found!!' (spec 01 section 1), for unknown pages inside an area and the /pages/404 demo.
import { Box, Button, Typography } from '@mui/material';
import { Link } from 'react-router';
import { T } from '@sentra/contracts';

export function NotFoundPage() {
  return (
    <Box sx={{ textAlign: 'center', py: 10, px: 2 }}>
      <Typography variant="h1" sx={{ fontWeight: 800, color: 'primary.main', fontSize: { xs: 72, sm: 120 } }}>
        404
      </Typography>
      <Typography variant="h4" component="p" gutterBottom>
        {T.notFoundPage}
      </Typography>
      <Button component={Link} to="/" variant="contained" sx={{ mt: 2 }}>
        {T.shell.backHome}
      </Button>
    </Box>
  );
}
