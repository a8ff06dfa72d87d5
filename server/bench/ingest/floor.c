// The floor under the gateway's broker thread on this machine (`npm run bench -- broker_floor`): one C thread doing
// only what no broker can avoid per device message over TCP, epoll over every connection, one read() per readable
// socket, CONNACK to CONNECT, PINGRESP to PINGREQ and, for QoS 1, the PUBACKs of a read in one write(). Nothing is
// parsed beyond the fixed header, stored or handed on. The fleet (fleet.c) drives it exactly as it drives the gateway,
// so the difference between the broker thread's CPU per message and this is what the broker's own code costs.
//
// Driven over stdin/stdout, one line each way: it prints {"port":n} once listening on 127.0.0.1 (an ephemeral port);
// `mark` -> {"messages":n,"cpu_us":n} (totals since start: PUBLISHes read, this process's CPU time); `quit` exits.
// Bounded: it exits by itself after BENCH_FLOOR_LIMIT_S (default 10 minutes).
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double cpu_us(void) {
  struct rusage r;
  getrusage(RUSAGE_SELF, &r);
  return (r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e6 + r.ru_utime.tv_usec + r.ru_stime.tv_usec;
}

int main(void) {
  const char *limit_env = getenv("BENCH_FLOOR_LIMIT_S");
  time_t deadline = time(NULL) + (limit_env ? atoi(limit_env) : 600);
  int ls = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = 0};
  inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  socklen_t len = sizeof addr;
  if (bind(ls, (struct sockaddr *)&addr, sizeof addr) || listen(ls, 4096) ||
      getsockname(ls, (struct sockaddr *)&addr, &len)) {
    perror("floor: listen");
    return 1;
  }
  fcntl(ls, F_SETFL, O_NONBLOCK);
  int ep = epoll_create1(0);
  struct epoll_event ev = {.events = EPOLLIN, .data.fd = ls};
  epoll_ctl(ep, EPOLL_CTL_ADD, ls, &ev);
  struct epoll_event in = {.events = EPOLLIN, .data.fd = 0};
  epoll_ctl(ep, EPOLL_CTL_ADD, 0, &in);
  printf("{\"port\":%d}\n", ntohs(addr.sin_port));
  fflush(stdout);
  static unsigned char buf[65536], out[65536];
  static char line[256];
  size_t line_len = 0;
  long messages = 0;
  struct epoll_event evs[512];
  while (time(NULL) < deadline) {
    int n = epoll_wait(ep, evs, 512, 1000);
    for (int i = 0; i < n; i++) {
      int fd = evs[i].data.fd;
      if (fd == ls) {
        for (;;) {
          int c = accept4(ls, NULL, NULL, SOCK_NONBLOCK);
          if (c < 0) break;
          struct epoll_event e = {.events = EPOLLIN, .data.fd = c};
          epoll_ctl(ep, EPOLL_CTL_ADD, c, &e);
        }
        continue;
      }
      if (fd == 0) {
        ssize_t got = read(0, line + line_len, sizeof line - 1 - line_len);
        if (got <= 0) return 0;
        line_len += (size_t)got;
        line[line_len] = 0;
        char *nl;
        while ((nl = strchr(line, '\n')) != NULL) {
          *nl = 0;
          if (strcmp(line, "quit") == 0) return 0;
          if (strcmp(line, "mark") == 0) {
            printf("{\"messages\":%ld,\"cpu_us\":%.0f}\n", messages, cpu_us());
            fflush(stdout);
          }
          line_len -= (size_t)(nl + 1 - line);
          memmove(line, nl + 1, line_len + 1);
        }
        if (line_len >= sizeof line - 1) line_len = 0;
        continue;
      }
      ssize_t got = read(fd, buf, sizeof buf);
      if (got <= 0) {
        close(fd);
        continue;
      }
      // whole packets of this read (the fleet's packets are small and arrive whole; a split one is simply skipped)
      size_t at = 0, o = 0;
      while (at + 2 <= (size_t)got && o + 4 <= sizeof out) {
        unsigned char head = buf[at];
        size_t length = 0, mul = 1, k = at + 1;
        while (k < (size_t)got && k < at + 5) {
          unsigned char b = buf[k++];
          length += (size_t)(b & 127) * mul;
          mul *= 128;
          if (!(b & 128)) break;
        }
        size_t end = k + length;
        if (end > (size_t)got) break;
        int type = head >> 4;
        if (type == 1) {
          out[o++] = 0x20, out[o++] = 2, out[o++] = 0, out[o++] = 0;
        } else if (type == 3) {
          messages++;
          if ((head >> 1) & 3 && k + 2 <= end) {
            size_t id = k + 2 + (((size_t)buf[k] << 8) | buf[k + 1]);
            if (id + 2 <= end) out[o++] = 0x40, out[o++] = 2, out[o++] = buf[id], out[o++] = buf[id + 1];
          }
        } else if (type == 12) {
          out[o++] = 0xd0, out[o++] = 0;
        }
        at = end;
      }
      if (o > 0 && write(fd, out, o) < 0) close(fd);
    }
  }
  return 0;
}
