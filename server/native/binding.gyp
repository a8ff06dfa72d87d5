{
  "targets": [{ "target_name": "fd", "sources": ["fd.c", "io.c"] }]
}
