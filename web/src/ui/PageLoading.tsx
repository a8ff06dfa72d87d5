// What a lazily loaded screen shows while its code arrives.
import { LinearProgress } from '@mui/material';

export function PageLoading() {
  return <LinearProgress sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: 2000 }} />;
}
