// Device sockets read without Node's per-read machinery (platform/mqtt/native-reads.ts). Node reads each socket on its
// own: libuv allocates a 64 KB buffer for the read and shrinks it, calls into JavaScript (which runs the microtask and
// tick queues), and the stream layer pushes the chunk and emits `readable` on the next tick. At 50,000 QoS 1 messages a
// second that was most of what the broker thread spent beyond the system calls themselves.
//
// A reader is one epoll set, watched by a single uv_poll in the thread's own libuv loop. When any of its sockets is
// readable, it reads each ready one once (up to READ_BYTES) and makes ONE call into JavaScript with everything read:
// one buffer holding the chunks and an Int32Array of records (slot, offset, length; a length of -1 is the end of the
// stream, -2 an error whose errno is the offset). Level-triggered: a socket with more to read is read again on the next
// turn, after the loop's other phases ran (timers, the hand-over), so one busy socket cannot hold the thread.
//
// The sockets stay Node's: Node opened them, writes them and closes them. A slot names a socket to the reader; a slot
// freed while JavaScript handles a batch is reused only after that batch, so a record never reaches a later socket.
// Each thread makes its own reader (no state is shared between threads).
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <errno.h>
#include <node_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>
#include <uv.h>

#define READ_BYTES 65536
/** what one turn reads at most before it calls JavaScript (the rest is read on the next turn) */
#define TURN_BYTES (1024 * 1024)
#define MAX_EVENTS 512

typedef struct {
  int fd;
  int used;
  int watched; /* in the epoll set: not while its client cannot take more, so not even a hang-up wakes the reader */
} Slot;

typedef struct {
  napi_env env;
  napi_ref callback;
  napi_async_context context;
  int ep;
  uv_poll_t poll;
  int polling;
  int closed;
  napi_async_cleanup_hook_handle hook; /* the thread's end closes the reader if JavaScript did not */
  int delivering;
  Slot *slots;
  uint32_t nslots, cap;
  uint32_t *free_slots;
  uint32_t nfree;
  uint32_t *later_free; /* freed while a batch is delivered: reusable after it */
  uint32_t nlater;
  char *scratch;
  int32_t *recs;
} Reader;

static napi_value throw_errno(napi_env env, const char *what) {
  char msg[160];
  snprintf(msg, sizeof msg, "%s: %s", what, strerror(errno));
  napi_throw_error(env, NULL, msg);
  return NULL;
}

static void release_slot(Reader *r, uint32_t s) {
  r->slots[s].used = 0;
  r->slots[s].watched = 0;
  r->slots[s].fd = -1;
  if (r->delivering)
    r->later_free[r->nlater++] = s;
  else
    r->free_slots[r->nfree++] = s;
}

static void on_ready(uv_poll_t *handle, int status, int events) {
  (void)status;
  (void)events;
  Reader *r = handle->data;
  if (r->closed) return;
  struct epoll_event evs[MAX_EVENTS];
  int n = epoll_wait(r->ep, evs, MAX_EVENTS, 0);
  size_t used = 0;
  int nrec = 0;
  for (int i = 0; i < n && used < TURN_BYTES; i++) {
    uint32_t s = evs[i].data.u32;
    if (s >= r->nslots || !r->slots[s].used || !r->slots[s].watched) continue;
    Slot *slot = &r->slots[s];
    ssize_t k = read(slot->fd, r->scratch + used, READ_BYTES);
    if (k > 0) {
      r->recs[nrec * 3] = (int32_t)s;
      r->recs[nrec * 3 + 1] = (int32_t)used;
      r->recs[nrec * 3 + 2] = (int32_t)k;
      nrec++;
      used += (size_t)k;
    } else if (k == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
      // the end, or an error: not watched any more (the socket is still open: JavaScript closes it)
      r->recs[nrec * 3] = (int32_t)s;
      r->recs[nrec * 3 + 1] = k == 0 ? 0 : errno;
      r->recs[nrec * 3 + 2] = k == 0 ? -1 : -2;
      nrec++;
      epoll_ctl(r->ep, EPOLL_CTL_DEL, slot->fd, NULL);
      slot->watched = 0;
    }
  }
  if (nrec == 0) return;
  napi_env env = r->env;
  napi_handle_scope scope;
  if (napi_open_handle_scope(env, &scope) != napi_ok) return;
  napi_value buf, ab, recs, fn, recv, argv[3], result;
  void *data;
  napi_create_buffer_copy(env, used, r->scratch, &data, &buf);
  napi_create_arraybuffer(env, (size_t)nrec * 3 * sizeof(int32_t), &data, &ab);
  memcpy(data, r->recs, (size_t)nrec * 3 * sizeof(int32_t));
  napi_create_typedarray(env, napi_int32_array, (size_t)nrec * 3, ab, 0, &recs);
  napi_get_reference_value(env, r->callback, &fn);
  napi_get_global(env, &recv);
  argv[0] = buf;
  argv[1] = recs;
  napi_create_int32(env, nrec, &argv[2]);
  r->delivering = 1;
  napi_status st = napi_make_callback(env, r->context, recv, fn, 3, argv, &result);
  r->delivering = 0;
  for (uint32_t i = 0; i < r->nlater; i++) r->free_slots[r->nfree++] = r->later_free[i];
  r->nlater = 0;
  if (st == napi_pending_exception) {
    napi_value err;
    napi_get_and_clear_last_exception(env, &err);
    napi_fatal_exception(env, err);
  }
  napi_close_handle_scope(env, scope);
}

static Reader *reader_of(napi_env env, napi_callback_info info, size_t *argc, napi_value *argv) {
  void *data;
  if (napi_get_cb_info(env, info, argc, argv, NULL, &data) != napi_ok) return NULL;
  Reader *r = data;
  if (r->closed) {
    napi_throw_error(env, NULL, "reader closed");
    return NULL;
  }
  return r;
}

static int int_arg(napi_env env, size_t argc, napi_value *argv, size_t i, int32_t *out) {
  if (argc <= i || napi_get_value_int32(env, argv[i], out) != napi_ok) {
    napi_throw_type_error(env, NULL, "expected a number");
    return 0;
  }
  return 1;
}

static int bool_arg(napi_env env, size_t argc, napi_value *argv, size_t i, bool *out) {
  if (argc <= i || napi_get_value_bool(env, argv[i], out) != napi_ok) {
    napi_throw_type_error(env, NULL, "expected a boolean");
    return 0;
  }
  return 1;
}

static Slot *slot_arg(napi_env env, Reader *r, size_t argc, napi_value *argv, uint32_t *s) {
  int32_t v;
  if (!int_arg(env, argc, argv, 0, &v)) return NULL;
  if (v < 0 || (uint32_t)v >= r->nslots || !r->slots[v].used) {
    napi_throw_range_error(env, NULL, "no such slot");
    return NULL;
  }
  *s = (uint32_t)v;
  return &r->slots[v];
}

/** the reader of a call and the slot its first argument names (NULL with an exception pending) */
static Slot *slot_call(napi_env env, napi_callback_info info, size_t *argc, napi_value *argv, Reader **r, uint32_t *s) {
  *r = reader_of(env, info, argc, argv);
  return *r ? slot_arg(env, *r, *argc, argv, s) : NULL;
}

/** attach(fd): the socket is read by this reader from now on; returns its slot */
static napi_value Attach(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1], out;
  Reader *r = reader_of(env, info, &argc, argv);
  int32_t fd;
  if (!r || !int_arg(env, argc, argv, 0, &fd)) return NULL;
  if (r->nfree == 0) {
    uint32_t cap = r->cap ? r->cap * 2 : 1024;
    Slot *slots = realloc(r->slots, cap * sizeof(Slot));
    uint32_t *free_slots = realloc(r->free_slots, cap * sizeof(uint32_t));
    uint32_t *later = realloc(r->later_free, cap * sizeof(uint32_t));
    if (!slots || !free_slots || !later) {
      if (slots) r->slots = slots;
      if (free_slots) r->free_slots = free_slots;
      if (later) r->later_free = later;
      napi_throw_error(env, NULL, "out of memory");
      return NULL;
    }
    r->slots = slots;
    r->free_slots = free_slots;
    r->later_free = later;
    for (uint32_t s = cap; s > r->cap; s--) {
      slots[s - 1].used = 0;
      slots[s - 1].fd = -1;
      free_slots[r->nfree++] = s - 1;
    }
    r->cap = cap;
    r->nslots = cap;
  }
  uint32_t s = r->free_slots[--r->nfree];
  struct epoll_event ev = {.events = EPOLLIN, .data.u32 = s};
  if (epoll_ctl(r->ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
    r->free_slots[r->nfree++] = s;
    return throw_errno(env, "epoll_ctl");
  }
  r->slots[s].fd = fd;
  r->slots[s].used = 1;
  r->slots[s].watched = 1;
  napi_create_int32(env, (int32_t)s, &out);
  return out;
}

/** watch(slot, on): the slot's socket is read (true) or not (false); false when it could not be watched again */
static napi_value Watch(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  Reader *r;
  uint32_t s;
  bool on;
  Slot *slot = slot_call(env, info, &argc, argv, &r, &s);
  if (!slot || !bool_arg(env, argc, argv, 1, &on)) return NULL;
  napi_value out;
  int ok = 1;
  if (on != (slot->watched != 0)) {
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = s};
    /* leaving the set cannot fail in a way that matters (a closed socket left it already) */
    ok = epoll_ctl(r->ep, on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, slot->fd, &ev) == 0 || !on;
    slot->watched = on && ok;
  }
  napi_get_boolean(env, ok, &out);
  return out;
}

/**
 * detach(slot): the slot is forgotten. Its socket left the epoll set already: closing it did (and its number may
 * belong to another socket by now), or the reader did on reading its end or an error.
 */
static napi_value Detach(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  void *data;
  uint32_t s;
  napi_get_cb_info(env, info, &argc, argv, NULL, &data);
  Reader *r = data;
  /* sockets still closing after the reader closed (the thread's end): nothing left to forget */
  if (r->closed || !slot_arg(env, r, argc, argv, &s)) return NULL;
  release_slot(r, s);
  return NULL;
}

/** write(slot, buffer): writes what the socket takes now; returns the bytes written (0 when it takes none) */
static napi_value Write(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], out;
  Reader *r;
  uint32_t s;
  Slot *slot = slot_call(env, info, &argc, argv, &r, &s);
  if (!slot) return NULL;
  void *data;
  size_t len;
  if (argc < 2 || napi_get_buffer_info(env, argv[1], &data, &len) != napi_ok) {
    napi_throw_type_error(env, NULL, "expected a buffer");
    return NULL;
  }
  ssize_t k;
  do k = write(slot->fd, data, len);
  while (k < 0 && errno == EINTR);
  napi_create_int32(env, k < 0 ? 0 : (int32_t)k, &out);
  return out;
}

/** reading(on): the whole reader reads (true) or not (false) */
static napi_value Reading(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  Reader *r = reader_of(env, info, &argc, argv);
  bool on;
  if (!r || !bool_arg(env, argc, argv, 0, &on)) return NULL;
  if (on && !r->polling) uv_poll_start(&r->poll, UV_READABLE, on_ready);
  if (!on && r->polling) uv_poll_stop(&r->poll);
  r->polling = on;
  return NULL;
}

static void free_reader(uv_handle_t *handle) {
  Reader *r = handle->data;
  napi_remove_async_cleanup_hook(r->hook);
  free(r->slots);
  free(r->free_slots);
  free(r->later_free);
  free(r->scratch);
  free(r->recs);
  free(r);
}

static void shut(Reader *r) {
  r->closed = 1;
  uv_poll_stop(&r->poll);
  close(r->ep);
  uv_close((uv_handle_t *)&r->poll, free_reader);
}

/** the thread (its environment) ends with the reader still open: its handle must close before the loop does */
static void on_env_end(napi_async_cleanup_hook_handle hook, void *arg) {
  (void)hook;
  Reader *r = arg;
  if (!r->closed) shut(r);
}

/** close(): the reader stops and lets go of its epoll set (its sockets are Node's and stay as they are) */
static napi_value Close(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  void *data;
  napi_get_cb_info(env, info, &argc, NULL, NULL, &data);
  Reader *r = data;
  if (r->closed) return NULL;
  napi_delete_reference(env, r->callback);
  napi_async_destroy(env, r->context);
  shut(r);
  return NULL;
}

static void method(napi_env env, napi_value obj, const char *name, napi_callback fn, Reader *r) {
  napi_value f;
  napi_create_function(env, name, NAPI_AUTO_LENGTH, fn, r, &f);
  napi_set_named_property(env, obj, name, f);
}

/** createReader(onRead(buffer, records, count)): a reader of this thread, idle until `reading(true)` */
static napi_value CreateReader(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1], obj, name;
  napi_valuetype type;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_typeof(env, argv[0], &type) != napi_ok || type != napi_function) {
    napi_throw_type_error(env, NULL, "createReader(onRead): onRead must be a function");
    return NULL;
  }
  uv_loop_t *loop;
  if (napi_get_uv_event_loop(env, &loop) != napi_ok) return NULL;
  Reader *r = calloc(1, sizeof(Reader));
  if (!r) return NULL;
  r->env = env;
  r->scratch = malloc(TURN_BYTES + READ_BYTES);
  r->recs = malloc(MAX_EVENTS * 3 * sizeof(int32_t));
  r->ep = epoll_create1(EPOLL_CLOEXEC);
  if (!r->scratch || !r->recs || r->ep < 0) {
    if (r->ep >= 0) close(r->ep);
    free(r->scratch);
    free(r->recs);
    free(r);
    return throw_errno(env, "createReader");
  }
  uv_poll_init(loop, &r->poll, r->ep);
  r->poll.data = r;
  napi_create_reference(env, argv[0], 1, &r->callback);
  napi_create_string_utf8(env, "sentra.mqttReader", NAPI_AUTO_LENGTH, &name);
  napi_async_init(env, NULL, name, &r->context);
  napi_add_async_cleanup_hook(env, on_env_end, r, &r->hook);
  napi_create_object(env, &obj);
  method(env, obj, "attach", Attach, r);
  method(env, obj, "watch", Watch, r);
  method(env, obj, "detach", Detach, r);
  method(env, obj, "write", Write, r);
  method(env, obj, "reading", Reading, r);
  method(env, obj, "close", Close, r);
  return obj;
}

napi_value io_init(napi_env env, napi_value exports) {
  napi_value fn;
  napi_create_function(env, "createReader", NAPI_AUTO_LENGTH, CreateReader, NULL, &fn);
  napi_set_named_property(env, exports, "createReader", fn);
  return exports;
}
