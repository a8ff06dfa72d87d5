// The list screens' search box (spec 03 section 2.1): the text applies on Enter or the search button only; Backspace or
// Delete in an empty box applies the empty search again (clears a search applied before).
import { useState, type KeyboardEvent } from 'react';
import { IconButton, InputAdornment, TextField } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';

export interface SearchBoxProps {
  placeholder: string;
  buttonLabel: string;
  /** the applied search, shown when the box mounts */
  initial?: string;
  onSearch(text: string): void;
  width?: number | string;
}

export function SearchBox({ placeholder, buttonLabel, initial = '', onSearch, width = 320 }: SearchBoxProps) {
  const [text, setText] = useState(initial);
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      onSearch(text.trim());
    } else if ((e.key === 'Backspace' || e.key === 'Delete') && text === '') onSearch('');
  };
  return (
    <TextField
      size="small"
      value={text}
      placeholder={placeholder}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={onKeyDown}
      sx={{ width: { xs: '100%', sm: width } }}
      slotProps={{
        htmlInput: { 'aria-label': placeholder, maxLength: 64 },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton edge="end" aria-label={buttonLabel} onClick={() => onSearch(text.trim())}>
                <SearchIcon />
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
