// The ingest benchmark's device fleet in C (the default; BENCH_FLEET=node runs devices.ts instead): one MQTT 3.1.1
// connection per device on 127.0.0.1, CONNECT/CONNACK, 3-point PUBLISHes at QoS 0 or 1 on d/<n>/data at a paced
// total rate, PUBACKs counted, PINGREQ when idle. It exists to leave the two cores to the gateway under test: the
// Node fleet spent 0.2-0.3 core of JavaScript on the same work, and it waited for every PUBACK in epoll, so each
// acknowledgement woke it. Here PUBACKs are read in one sweep a second (each socket then holds ~4 of them), and the
// fleet sleeps between its 10 ms ticks; the broker writes every PUBACK exactly as before.
// Over 500 lines: one self-contained program (no headers of its own) built by the bench with one compiler call.
//
// Driven over stdin/stdout by ingest.bench.ts, one line each way:
//   devices <file>                               -> {"cmd":"devices","loaded":n}
//       (optional, before connect: one line per device, `<client id> <username> <password> <topic>`, the
//        credentials the REST registration answered; without it device n is `bench-<n>` on d/<n>/data, no password)
//   connect <port> <devices> <concurrency>       -> {"cmd":"connected","connected":n,"failed":n}
//   run <qos> <messages_per_s> <seconds>         -> {"cmd":"ran","sent":n,"errors":n,"seconds":s}
//   quit                                         -> DISCONNECT on every connection, exit 0
// Payload as devices.ts: {"env":{"data":{"temperature":T,"humidity":H}},"bench":{"data":{"sent_at":<wall ms>}}}.
// BENCH_TRACE=1: a tick due every 10 ms coming more than 50 ms late is written to stderr. Loopback only; every wait
// is bounded (connect 90 s, acknowledgements 10 s, the whole process BENCH_FLEET_LIMIT_S, default 15 minutes).
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define KEEPALIVE_S 120
#define TICK_MS 10
#define READ_EVERY_MS 1000
#define CONNECT_DEADLINE_MS 90000
#define ACK_WAIT_MS 10000

typedef struct {
  int fd;         /* -1: not connected or closed */
  int connacked;
  uint16_t next_id;
  long outstanding; /* QoS 1 publishes not acknowledged yet (as far as read) */
  uint8_t held[4]; /* the start of a packet split across reads (every packet a broker sends here is <= 4 bytes) */
  int held_len;
  char *pending;   /* bytes a full socket buffer did not take, written before anything new */
  size_t pending_len, pending_cap;
  double last_write_ms;
  char topic[32];
  int topic_len;
} Client;

static Client *clients;
static int nclients;
static int sockets_ep = -1; /* every connection, read in sweeps (nobody blocks on it: no wake-up per PUBACK) */
static long errors_total;
static int trace;

static double mono_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static long long wall_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void sleep_until(double mono) {
  struct timespec t;
  t.tv_sec = (time_t)(mono / 1e3);
  t.tv_nsec = (long)((mono - t.tv_sec * 1e3) * 1e6);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR) {
  }
}

static void close_client(Client *c) {
  if (c->fd < 0) return;
  /* its QoS 1 publishes still waiting for a PUBACK were never acknowledged: errors, not "acknowledged" (the gateway
     closes a connection instead of acknowledging a message it could not store) */
  if (c->outstanding > 0) errors_total += c->outstanding;
  c->outstanding = 0;
  epoll_ctl(sockets_ep, EPOLL_CTL_DEL, c->fd, NULL);
  close(c->fd);
  c->fd = -1;
  c->pending_len = 0;
}

/** writes what the socket takes; the rest waits in `pending` (written before the client's next packet) */
static void flush_pending(Client *c);
static void send_bytes(Client *c, const char *buf, size_t len) {
  if (c->fd < 0) return;
  if (c->pending_len > 0) flush_pending(c);
  if (c->fd >= 0 && c->pending_len == 0) {
    ssize_t n = write(c->fd, buf, len);
    if (n == (ssize_t)len) {
      c->last_write_ms = mono_ms();
      return;
    }
    if (n < 0) {
      if (errno != EAGAIN && errno != EWOULDBLOCK) {
        close_client(c);
        return;
      }
      n = 0;
    }
    buf += n;
    len -= (size_t)n;
  }
  if (c->fd < 0) return;
  if (c->pending_len + len > c->pending_cap) {
    size_t cap = c->pending_cap ? c->pending_cap * 2 : 4096;
    while (cap < c->pending_len + len) cap *= 2;
    char *p = realloc(c->pending, cap);
    if (!p) {
      close_client(c);
      return;
    }
    c->pending = p;
    c->pending_cap = cap;
  }
  memcpy(c->pending + c->pending_len, buf, len);
  c->pending_len += len;
}

static void flush_pending(Client *c) {
  if (c->fd < 0 || c->pending_len == 0) return;
  ssize_t n = write(c->fd, c->pending, c->pending_len);
  if (n < 0) {
    if (errno != EAGAIN && errno != EWOULDBLOCK) close_client(c);
    return;
  }
  memmove(c->pending, c->pending + n, c->pending_len - (size_t)n);
  c->pending_len -= (size_t)n;
  c->last_write_ms = mono_ms();
}

/** the packets of one read: CONNACK, PUBACK, PINGRESP (anything else closes the connection as an error) */
static void on_bytes(Client *c, const uint8_t *buf, size_t len) {
  uint8_t joined[4 + 4096];
  if (c->held_len > 0) {
    memcpy(joined, c->held, (size_t)c->held_len);
    if (len > 4096) len = 4096;
    memcpy(joined + c->held_len, buf, len);
    buf = joined;
    len += (size_t)c->held_len;
    c->held_len = 0;
  }
  size_t at = 0;
  while (at + 2 <= len) {
    uint8_t type = buf[at] & 0xf0, rl = buf[at + 1];
    if (rl & 0x80 || rl > 2) {
      errors_total++;
      close_client(c);
      return;
    }
    if (at + 2 + rl > len) break;
    if (type == 0x20 && rl == 2) {
      if (buf[at + 3] != 0) {
        close_client(c);
        return;
      }
      c->connacked = 1;
    } else if (type == 0x40 && rl == 2) {
      c->outstanding--;
    } else if (type != 0xd0) {
      errors_total++;
      close_client(c);
      return;
    }
    at += 2 + rl;
  }
  if (at < len) {
    c->held_len = (int)(len - at);
    memcpy(c->held, buf + at, (size_t)c->held_len);
  }
}

/** reads every socket with something to read (level-triggered, without waiting) */
static void sweep(void) {
  static struct epoll_event evs[1024];
  uint8_t buf[4096];
  for (int round = 0; round < 64; round++) {
    int n = epoll_wait(sockets_ep, evs, 1024, 0);
    if (n <= 0) return;
    for (int i = 0; i < n; i++) {
      Client *c = &clients[evs[i].data.u32];
      if (c->fd < 0) continue;
      for (;;) {
        ssize_t r = read(c->fd, buf, sizeof buf);
        if (r > 0) {
          on_bytes(c, buf, (size_t)r);
          if (c->fd < 0 || r < (ssize_t)sizeof buf) break;
          continue;
        }
        if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) close_client(c);
        break;
      }
    }
    if (n < 1024) return;
  }
}

static size_t mqtt_string(uint8_t *out, const char *s) {
  size_t n = strlen(s);
  out[0] = (uint8_t)(n >> 8);
  out[1] = (uint8_t)(n & 0xff);
  memcpy(out + 2, s, n);
  return n + 2;
}

static size_t remaining_length(uint8_t *out, size_t n) {
  size_t i = 0;
  do {
    uint8_t b = n % 128;
    n /= 128;
    if (n > 0) b |= 0x80;
    out[i++] = b;
  } while (n > 0);
  return i;
}

/* registered devices' credentials (the `devices` command): NULL without them */
typedef struct {
  char id[64], user[64], pass[96], topic[30];
} Credentials;
static Credentials *creds;
static int ncreds;

static void do_devices(const char *file) {
  FILE *f = fopen(file, "r");
  int cap = 1024;
  free(creds);
  creds = calloc((size_t)cap, sizeof(Credentials));
  ncreds = 0;
  if (f) {
    Credentials c;
    while (fscanf(f, "%63s %63s %95s %29s", c.id, c.user, c.pass, c.topic) == 4) {
      if (ncreds == cap) creds = realloc(creds, (size_t)(cap *= 2) * sizeof(Credentials));
      creds[ncreds++] = c;
    }
    fclose(f);
  }
  printf("{\"cmd\":\"devices\",\"loaded\":%d}\n", ncreds);
  fflush(stdout);
}

static void send_connect(Client *c, int i) {
  uint8_t body[512], pkt[520];
  char id[64], user[64];
  const char *pass = NULL;
  if (i < ncreds) {
    snprintf(id, sizeof id, "%s", creds[i].id);
    snprintf(user, sizeof user, "%s", creds[i].user);
    pass = creds[i].pass;
  } else {
    snprintf(id, sizeof id, "bc-%d", i);
    snprintf(user, sizeof user, "bench-%d", i);
  }
  /* protocol name, level 4, flags: username (+ password) + clean session, keepalive */
  const uint8_t header[] = {0, 4, 'M', 'Q', 'T', 'T', 4, pass ? 0xc2 : 0x82, KEEPALIVE_S >> 8, KEEPALIVE_S & 0xff};
  size_t b = 0;
  memcpy(body, header, sizeof header);
  b += sizeof header;
  b += mqtt_string(body + b, id);
  b += mqtt_string(body + b, user);
  if (pass) b += mqtt_string(body + b, pass);
  size_t p = 0;
  pkt[p++] = 0x10;
  p += remaining_length(pkt + p, b);
  memcpy(pkt + p, body, b);
  send_bytes(c, (const char *)pkt, p + b);
}

/** a connection attempt given up (refused, closed, no CONNACK in time) */
static void abandon(int ep, Client *c) {
  if (c->fd < 0) return;
  epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
  close(c->fd);
  c->fd = -1;
}

static void do_connect(int port, int devices, int concurrency) {
  free(clients);
  clients = calloc((size_t)devices, sizeof(Client));
  nclients = devices;
  int connect_ep = epoll_create1(0);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  int next = 0, in_flight = 0, connected = 0, failed = 0;
  double deadline = mono_ms() + CONNECT_DEADLINE_MS;
  double *started = calloc((size_t)devices, sizeof(double));
  struct epoll_event evs[256];
  for (int i = 0; i < devices; i++) clients[i].fd = -1;
  while ((next < devices || in_flight > 0) && mono_ms() < deadline) {
    while (next < devices && in_flight < concurrency) {
      int i = next++;
      Client *c = &clients[i];
      c->next_id = 1;
      char t[30];
      if (i < ncreds) snprintf(t, sizeof t, "%s", creds[i].topic);
      else snprintf(t, sizeof t, "d/%d/data", i);
      c->topic_len = (int)mqtt_string((uint8_t *)c->topic, t);
      int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
      int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      if (fd < 0 || (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0 && errno != EINPROGRESS)) {
        if (fd >= 0) close(fd);
        failed++;
        continue;
      }
      c->fd = fd;
      started[i] = mono_ms();
      struct epoll_event ev = {.events = EPOLLOUT | EPOLLIN, .data.u32 = (uint32_t)i};
      epoll_ctl(connect_ep, EPOLL_CTL_ADD, fd, &ev);
      in_flight++;
    }
    int n = epoll_wait(connect_ep, evs, 256, 50);
    for (int k = 0; k < n; k++) {
      int i = (int)evs[k].data.u32;
      Client *c = &clients[i];
      if (c->fd < 0) continue;
      if (evs[k].events & (EPOLLERR | EPOLLHUP)) {
        abandon(connect_ep, c);
        failed++;
        in_flight--;
        continue;
      }
      if (evs[k].events & EPOLLOUT) {
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        epoll_ctl(connect_ep, EPOLL_CTL_MOD, c->fd, &ev);
        send_connect(c, i);
      }
      if (evs[k].events & EPOLLIN) {
        uint8_t buf[64];
        ssize_t r = read(c->fd, buf, sizeof buf);
        if (r > 0) on_bytes(c, buf, (size_t)r);
        if (r == 0 || c->fd < 0 || (r < 0 && errno != EAGAIN)) {
          abandon(connect_ep, c);
          failed++;
          in_flight--;
          continue;
        }
        if (c->connacked) {
          epoll_ctl(connect_ep, EPOLL_CTL_DEL, c->fd, NULL);
          struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
          epoll_ctl(sockets_ep, EPOLL_CTL_ADD, c->fd, &ev);
          c->last_write_ms = mono_ms();
          connected++;
          in_flight--;
        }
      }
    }
    /* a CONNACK that never comes (30 s, as the Node fleet's time-out) */
    double now = mono_ms();
    for (int i = 0; i < next; i++) {
      Client *c = &clients[i];
      if (c->fd >= 0 && !c->connacked && now - started[i] > 30000) {
        abandon(connect_ep, c);
        failed++;
        in_flight--;
      }
    }
  }
  for (int i = 0; i < next; i++) {
    Client *c = &clients[i];
    if (c->fd >= 0 && !c->connacked) {
      abandon(connect_ep, c);
      failed++;
    }
  }
  failed += devices - next;
  free(started);
  close(connect_ep);
  printf("{\"cmd\":\"connected\",\"connected\":%d,\"failed\":%d}\n", connected, failed);
  fflush(stdout);
}

/** PINGREQ on connections that wrote nothing for half the keep-alive */
static void keep_alive(void) {
  double now = mono_ms();
  static const char ping[] = {(char)0xc0, 0};
  for (int i = 0; i < nclients; i++) {
    Client *c = &clients[i];
    if (c->fd >= 0 && now - c->last_write_ms > KEEPALIVE_S * 500) send_bytes(c, ping, 2);
  }
}

static void publish(Client *c, int qos, long sent) {
  char payload[160];
  int tenths = 200 + (int)(sent % 100);
  int plen = snprintf(payload, sizeof payload, "{\"env\":{\"data\":{\"temperature\":%d.%d,\"humidity\":%d}},\"bench\":{\"data\":{\"sent_at\":%lld}}}", tenths / 10, tenths % 10, 40 + (int)(sent % 7), wall_ms());
  uint8_t pkt[256];
  size_t body = (size_t)c->topic_len + (qos ? 2 : 0) + (size_t)plen;
  size_t p = 0;
  pkt[p++] = qos ? 0x32 : 0x30;
  p += remaining_length(pkt + p, body);
  memcpy(pkt + p, c->topic, (size_t)c->topic_len);
  p += (size_t)c->topic_len;
  if (qos) {
    uint16_t id = c->next_id;
    c->next_id = id == 0xffff ? 1 : id + 1;
    pkt[p++] = (uint8_t)(id >> 8);
    pkt[p++] = (uint8_t)(id & 0xff);
    c->outstanding++;
  }
  memcpy(pkt + p, payload, (size_t)plen);
  send_bytes(c, (const char *)pkt, p + (size_t)plen);
}

/** what full socket buffers held back (written before a client's next packet, and here when no packet follows) */
static void flush_all(void) {
  for (int i = 0; i < nclients; i++)
    if (clients[i].pending_len > 0) flush_pending(&clients[i]);
}

static long unacked(void) {
  long n = 0;
  for (int i = 0; i < nclients; i++)
    if (clients[i].fd >= 0) n += clients[i].outstanding;
  return n;
}

static void do_run(int qos, double per_second, double seconds) {
  int *live = malloc(sizeof(int) * (size_t)(nclients ? nclients : 1));
  int nlive = 0;
  for (int i = 0; i < nclients; i++)
    if (clients[i].fd >= 0) live[nlive++] = i;
  long sent = 0, errors0 = errors_total;
  unsigned long cursor = 0;
  double started = mono_ms(), last_tick = started, last_read = started;
  for (long tick = 1;; tick++) {
    sleep_until(started + tick * TICK_MS);
    double now = mono_ms();
    if (trace && now - last_tick > 50) fprintf(stderr, "generator late tick wall=%lld gap_ms=%.0f\n", wall_ms(), now - last_tick);
    last_tick = now;
    double elapsed = now - started;
    if (elapsed >= seconds * 1000) break;
    /* what is due by now, catching up on late ticks but never bursting more than 100 ms worth */
    long n = (long)(per_second * elapsed / 1000) - sent;
    if (n > (long)(per_second / 10)) n = (long)(per_second / 10);
    for (long k = 0; k < n && nlive > 0; k++) {
      Client *c = &clients[live[cursor++ % (unsigned long)nlive]];
      if (c->fd < 0) errors_total++;
      else publish(c, qos, sent);
      sent++;
    }
    if (now - last_read >= READ_EVERY_MS) {
      sweep();
      last_read = now;
    }
  }
  double took = (mono_ms() - started) / 1000;
  /* every QoS 1 publish acknowledged (bounded wait): what is still unacknowledged counts as an error */
  for (int i = 0; i < ACK_WAIT_MS / 50; i++) {
    flush_all();
    sweep();
    if (unacked() <= 0) break;
    sleep_until(mono_ms() + 50);
  }
  printf("{\"cmd\":\"ran\",\"sent\":%ld,\"errors\":%ld,\"seconds\":%.3f}\n", sent, errors_total - errors0 + unacked(), took);
  fflush(stdout);
  free(live);
}

static void do_quit(void) {
  static const char disconnect[] = {(char)0xe0, 0};
  for (int i = 0; i < nclients; i++) {
    Client *c = &clients[i];
    if (c->fd < 0) continue;
    flush_pending(c);
    send_bytes(c, disconnect, 2);
    close(c->fd);
    c->fd = -1;
  }
  exit(0);
}

int main(void) {
  signal(SIGPIPE, SIG_IGN);
#ifdef __linux__
  // the benchmark that drives it gone (killed in the middle of a phase, when stdin is not read): so is the fleet
  pid_t parent = getppid();
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) return 1;
#endif
  const char *limit = getenv("BENCH_FLEET_LIMIT_S");
  alarm(limit ? (unsigned)atoi(limit) : 15 * 60);
  trace = getenv("BENCH_TRACE") != NULL && getenv("BENCH_TRACE")[0] != '\0';
  sockets_ep = epoll_create1(0);
  int control_ep = epoll_create1(0);
  struct epoll_event ev = {.events = EPOLLIN, .data.u32 = 0};
  epoll_ctl(control_ep, EPOLL_CTL_ADD, 0, &ev);
  char line[4096];
  size_t have = 0;
  double last_idle_read = mono_ms();
  for (;;) {
    /* idle: answer the broker (PINGRESPs, late PUBACKs) and keep connections alive while waiting for a command */
    struct epoll_event got;
    int n = epoll_wait(control_ep, &got, 1, 200);
    if (mono_ms() - last_idle_read >= READ_EVERY_MS) {
      flush_all();
      sweep();
      keep_alive();
      last_idle_read = mono_ms();
    }
    if (n <= 0) continue;
    ssize_t r = read(0, line + have, sizeof line - 1 - have);
    if (r <= 0) do_quit(); /* the benchmark went away */
    have += (size_t)r;
    line[have] = '\0';
    char *nl;
    while ((nl = strchr(line, '\n')) != NULL) {
      *nl = '\0';
      int port, devices, concurrency, qos;
      double rate, seconds;
      char file[4000];
      if (sscanf(line, "devices %3999s", file) == 1) do_devices(file);
      else if (sscanf(line, "connect %d %d %d", &port, &devices, &concurrency) == 3) do_connect(port, devices, concurrency);
      else if (sscanf(line, "run %d %lf %lf", &qos, &rate, &seconds) == 3) do_run(qos ? 1 : 0, rate, seconds);
      else if (strncmp(line, "quit", 4) == 0) do_quit();
      else {
        printf("{\"cmd\":\"error\",\"line\":\"?\"}\n");
        fflush(stdout);
      }
      size_t used = (size_t)(nl - line) + 1;
      memmove(line, nl + 1, have - used + 1);
      have -= used;
    }
    if (have >= sizeof line - 1) have = 0;
  }
}
