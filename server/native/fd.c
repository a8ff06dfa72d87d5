// dup(2) for the MQTT broker threads: each thread listens on its own descriptor of the one listening socket, so a
// thread closing (or dying) closes only its own and never a number another thread still uses.
#include <errno.h>
#include <node_api.h>
#include <unistd.h>

static napi_value Dup(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t fd;
  napi_value out;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 || napi_get_value_int32(env, argv[0], &fd) != napi_ok) {
    napi_throw_type_error(env, NULL, "dup(fd): fd must be a number");
    return NULL;
  }
  int copy = dup(fd);
  if (copy < 0) {
    napi_throw_error(env, NULL, "dup failed");
    return NULL;
  }
  napi_create_int32(env, copy, &out);
  return out;
}

napi_value io_init(napi_env env, napi_value exports); /* io.c */

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "dup", NAPI_AUTO_LENGTH, Dup, NULL, &fn);
  napi_set_named_property(env, exports, "dup", fn);
  return io_init(env, exports);
}
